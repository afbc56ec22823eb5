import { randomBytes } from "node:crypto";
import { setTimeout } from "node:timers/promises";
import type { Storage } from "@openpractice/core";
import BetterSqlite3 from "better-sqlite3";
import mysql from "mysql2/promise";
import pg from "pg";
import { join } from "node:path";
import { ENGINES } from "@openpractice/runtime";
import { sharedSchemaProbe, type StorageProbe } from "@openpractice/testing";
import { inject } from "vitest";
import { makeTempDir } from "./temp-dir.js";

export type EngineName = "sqlite" | "postgres" | "mysql";

const URL_VARIABLES: Readonly<Record<string, string>> = Object.fromEntries(
  ENGINES.flatMap((e) => (e.testUrlVariable ? [[e.name, e.testUrlVariable]] : [])),
);

/**
 * The engines OPENPRACTICE_TEST_ENGINES names (a comma-separated list, e.g. `postgres` for the PostgreSQL version
 * runs of CONTRIBUTING.md), or every engine of the registry when it is unset.
 */
function selectedEngines(): EngineName[] {
  const all = ENGINES.map((e) => e.name as EngineName);
  const list = process.env.OPENPRACTICE_TEST_ENGINES;
  if (!list) return all;
  const named = list.split(",").map((name) => name.trim());
  for (const name of named)
    if (!all.includes(name as EngineName))
      throw new Error(`OPENPRACTICE_TEST_ENGINES names '${name}', not an engine (${all.join(", ")})`);
  return all.filter((engine) => named.includes(engine));
}

/**
 * The engines this run can test, from the runtime's engine registry: the file
 * engines always, a server engine when its URL variable is set
 * (.ci/with-databases.sh sets them). In CI a missing engine is an error, never
 * a silent skip. OPENPRACTICE_TEST_ENGINES narrows the list.
 */
export function availableEngines(): EngineName[] {
  const selected = selectedEngines();
  const engines = ENGINES.filter((e) => !e.testUrlVariable)
    .map((e) => e.name as EngineName)
    .filter((engine) => selected.includes(engine));
  for (const [engine, variable] of Object.entries(URL_VARIABLES) as Array<[EngineName, string]>) {
    if (!selected.includes(engine)) continue;
    if (process.env[variable]) engines.push(engine);
    else if (process.env.CI)
      throw new Error(`${variable} is not set: CI must test ${engine} (run through .ci/with-databases.sh)`);
    else console.warn(`[${engine}] not tested: set ${variable} (or run: bash .ci/with-databases.sh npx vitest run)`);
  }
  return engines;
}

/**
 * The engine's name with the version of the server this run tests it on (`postgres 18.4`), for suite titles: the
 * PostgreSQL suites run on several versions. The versions come from server-versions.global-setup.ts.
 */
export function engineLabel(engine: EngineName): string {
  const version = inject("serverVersions")[engine];
  return version ? `${engine} ${version}` : engine;
}

/** PostgreSQL only: one database per test file, migrated once, that `freshDatabase(…, { migrated })` copies. */
let migratedTemplate: Promise<string> | undefined;

async function postgresAdmin<T>(base: URL, work: (admin: pg.Client) => Promise<T>): Promise<T> {
  const admin = new pg.Client({ connectionString: base.toString() });
  await admin.connect();
  try {
    return await work(admin);
  } finally {
    await admin.end();
  }
}

/** How long a drop waits for the database's sessions to end on their own before it ends them. */
const SESSIONS_END_WAIT_MS = 3_000;

/**
 * Drops the database. pg's `pool.end()` resolves once its clients are told to close, before their sessions have
 * ended; a forced drop then terminates those sessions, and a client told so emits 'error', uncaught where
 * nobody listens (a test's own pool): the run reports an unhandled error though every test passed. So the drop
 * first waits, briefly, for the sessions to end, and forces only those that remain (a test that leaves one open).
 */
async function dropPostgresDatabase(base: URL, name: string): Promise<void> {
  await postgresAdmin(base, async (admin) => {
    const deadline = Date.now() + SESSIONS_END_WAIT_MS;
    while (Date.now() < deadline) {
      const { rows } = await admin.query("select count(*)::int as n from pg_stat_activity where datname = $1", [name]);
      if (rows[0]?.n === 0) break;
      await setTimeout(10);
    }
    await admin.query(`drop database if exists ${name} with (force)`);
  });
}

function migratedPostgresTemplate(base: URL): Promise<string> {
  migratedTemplate ??= (async () => {
    const name = `op_template_${randomBytes(6).toString("hex")}`;
    await postgresAdmin(base, (admin) => admin.query(`create database ${name}`));
    const url = new URL(base);
    url.pathname = `/${name}`;
    // Opening migrates it; closing leaves no connection, which copying it requires.
    await (await openEngineStorage("postgres", url.toString())).close();
    // For the setup file's afterAll (drop-migrated-template.setup.ts).
    (globalThis as { dropMigratedTemplate?: () => Promise<void> }).dropMigratedTemplate = dropMigratedTemplate;
    return name;
  })();
  return migratedTemplate;
}

/** Drops the migrated template of this test file, if it made one (after the file: drop-migrated-template.setup.ts). */
export async function dropMigratedTemplate(): Promise<void> {
  const template = migratedTemplate;
  migratedTemplate = undefined;
  delete (globalThis as { dropMigratedTemplate?: unknown }).dropMigratedTemplate;
  const variable = URL_VARIABLES.postgres;
  if (!template || !variable || !process.env[variable]) return;
  const name = await template;
  await dropPostgresDatabase(new URL(process.env[variable] as string), name);
}

/**
 * A fresh database on the engine, as a URL, and a function dropping it: empty, or with `migrated` already
 * migrated on PostgreSQL (a copy of a template migrated once per test file: a copy takes about 25 ms where
 * creating and migrating takes about 400; the other engines are left empty and migrate when opened).
 */
export async function freshDatabase(
  engine: EngineName,
  options: { migrated?: boolean } = {},
): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `op_${randomBytes(6).toString("hex")}`;
  if (engine === "sqlite") {
    const temp = makeTempDir("openpractice-sqlite-");
    return { url: `sqlite:${join(temp.dir, `${name}.db`)}`, drop: async () => temp.remove() };
  }
  const base = new URL(process.env[URL_VARIABLES[engine] ?? ""] as string);
  const target = new URL(base);
  target.pathname = `/${name}`;
  if (engine === "postgres") {
    const template = options.migrated ? await migratedPostgresTemplate(base) : undefined;
    await postgresAdmin(base, (admin) =>
      admin.query(`create database ${name}${template ? ` template ${template} strategy file_copy` : ""}`),
    );
    return {
      url: target.toString(),
      drop: () => dropPostgresDatabase(base, name),
    };
  }
  const admin = await mysql.createConnection(base.toString());
  await admin.query(`create database ${name} character set utf8mb4 collate utf8mb4_unicode_ci`);
  await admin.end();
  return {
    url: target.toString(),
    drop: async () => {
      const c = await mysql.createConnection(base.toString());
      await c.query(`drop database if exists ${name}`);
      await c.end();
    },
  };
}

/** The engine's store at `url`, opened as the runtime opens DATABASE_URL (the registry's engine). */
export async function openEngineStorage(engine: EngineName, url: string): Promise<Storage> {
  const entry = ENGINES.find((e) => e.name === engine);
  if (!entry) throw new Error(`no engine ${engine} in the registry`);
  return (await entry.load()).open(url);
}

/** A raw connection with the engine's own driver: `?` placeholders on every engine, counts as numbers. */
export interface RawQuery {
  query(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  close(): Promise<void>;
}

export async function openRawQuery(engine: EngineName, url: string): Promise<RawQuery> {
  if (engine === "sqlite") {
    const raw = new BetterSqlite3(url.slice("sqlite:".length), { readonly: true });
    return {
      query: async (sql, params = []) => raw.prepare(sql).all(...params) as Record<string, unknown>[],
      close: async () => void raw.close(),
    };
  }
  if (engine === "postgres") {
    // count(*) is bigint; read it as a number, as the other drivers do.
    const types = {
      getTypeParser: (oid: number, format?: string) =>
        oid === 20 ? (v: string) => Number(v) : pg.types.getTypeParser(oid, format as never),
    };
    const client = new pg.Client({ connectionString: url, types: types as never });
    // A test may cut connections on purpose (database-unavailable.test.ts); a dropped probe must not crash the run.
    client.on("error", () => undefined);
    await client.connect();
    return {
      async query(sql, params = []) {
        let i = 0;
        return (
          await client.query(
            sql.replace(/\?/g, () => `$${++i}`),
            params,
          )
        ).rows;
      },
      close: () => client.end(),
    };
  }
  const conn = await mysql.createConnection(url);
  return {
    async query(sql, params = []) {
      const [rows] = await conn.query(sql, params);
      return rows as Record<string, unknown>[];
    },
    close: () => conn.end(),
  };
}

/** Raw reads with the engine's own driver on its own connection, independent of the repositories. */
export async function openProbe(engine: EngineName, url: string): Promise<StorageProbe & { close(): Promise<void> }> {
  const raw = await openRawQuery(engine, url);
  const probe = sharedSchemaProbe(async (table, where = {}) => {
    if (!/^[a-z_]+$/.test(table)) throw new Error(`bad table ${table}`);
    const keys = Object.keys(where);
    const clause = keys.length ? ` where ${keys.map((k) => `${k} = ?`).join(" and ")}` : "";
    return raw.query(
      `select * from ${table}${clause}`,
      keys.map((k) => where[k]),
    );
  });
  return { ...probe, close: () => raw.close() };
}
