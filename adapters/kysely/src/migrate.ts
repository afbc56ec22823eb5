import { Migrator, type Kysely, type Migration, type MigrationProvider } from "kysely";
import { moduleMigrations } from "./kysely-modules.js";
import type { SqlDialectProfile } from "./sql-dialect-profile.js";

/** Migrations in code (not files on disk), so bundling and embedding never lose them: every module's, in name order. */
export function sharedMigrations(profile: SqlDialectProfile): Record<string, Migration> {
  return moduleMigrations(profile);
}

/** Applies every pending migration; throws with the failing migration's name. Safe to run from several processes: Kysely takes a lock table. */
// biome-ignore lint/suspicious/noExplicitAny: migrations run on a database whose tables `Database` does not describe yet
export async function migrateToLatest(db: Kysely<any>, profile: SqlDialectProfile): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => sharedMigrations(profile) };
  // Parallel branches reserve migration numbers (010 and 011 were written side by side), so a
  // database may have applied a later number before an earlier one lands: apply it then.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error) {
    throw new Error(
      `Migration ${failed?.migrationName ?? "(unknown)"} failed: ${error instanceof Error ? error.message : String(error)}`,
      { cause: error },
    );
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
