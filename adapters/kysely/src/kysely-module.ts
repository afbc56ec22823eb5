import type { Repositories } from "@openpractice/core";
import type { Kysely, Migration } from "kysely";
import type { Database } from "./schema.js";
import type { SqlDialectProfile } from "./sql-dialect-profile.js";

/**
 * A domain in the shared SQL adapter: the repositories it provides (by their
 * key in core's Repositories), its migrations (named with their global number,
 * applied in name order across all modules) and the tables it owns. The
 * storage's repositories and the migration list are built from the list of
 * modules (kysely-modules.ts). A new domain's table types live in
 * tables/<domain>.ts (leaf files: kysely's types only) and join `Database` with
 * one line in schema.ts (declaration merging from the domain's file would be lost
 * from the bundled declarations). Modules sit above their repositories and
 * migrations, which never import a module.
 */
export interface KyselyModule<K extends keyof Repositories> {
  readonly key: string;
  repositories(db: Kysely<Database>, profile: SqlDialectProfile): Pick<Repositories, K>;
  migrations(profile: SqlDialectProfile): Readonly<Record<string, Migration>>;
  /** The tables this module's migrations create; a test checks every table has exactly one owner. */
  readonly tables: readonly (keyof Database)[];
}

export function defineKyselyModule<K extends keyof Repositories>(module: KyselyModule<K>): KyselyModule<K> {
  return Object.freeze(module);
}
