// The benchmark fixture on a PostgreSQL or MariaDB server (DATABASE_URL): a
// fresh database per run, migrated by the real adapter (createPostgresStorage /
// createMysqlStorage), then the rows of fixture.mjs bulk-loaded through the
// engine's own driver in one transaction (pg: multi-row INSERTs; mysql2:
// multi-row INSERTs), then ANALYZE. Copies for the other servers are made on
// the server (PostgreSQL: CREATE DATABASE … TEMPLATE; MariaDB: the adapter's
// migrations, then INSERT … SELECT), so the rows are generated once.
import { randomBytes } from "node:crypto";
import { createMysqlStorage } from "@openpractice/mysql";
import { createPostgresStorage } from "@openpractice/postgres";
import mysql from "mysql2/promise";
import pg from "pg";
import { fixtureRows, organisationRow } from "./fixture.mjs";

/** "postgres" | "mysql" | "sqlite" for a DATABASE_URL (absent or sqlite:: SQLite, on the bench's own temp file). */
export function engineOf(url) {
  if (!url || url.startsWith("sqlite:")) return "sqlite";
  if (/^postgres(ql)?:\/\//.test(url)) return "postgres";
  if (url.startsWith("mysql://")) return "mysql";
  throw new Error(`DATABASE_URL must start with postgres://, postgresql:// or mysql:// (got ${url.split(":")[0]}:)`);
}

/** `url` with its database replaced by `name`. */
export const withDatabase = (url, name) => Object.assign(new URL(url), { pathname: `/${name}` }).toString();
const runTag = randomBytes(4).toString("hex");
const created = [];

/** Runs `fn` on a connection to `url` with the engine's driver: `fn(query)` where query(sql, params) resolves to rows. */
export async function withConnection(url, fn) {
  if (engineOf(url) === "postgres") {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    try {
      return await fn(async (text, params) => (await client.query(text, params)).rows);
    } finally {
      await client.end();
    }
  }
  const conn = await mysql.createConnection({
    uri: url,
    charset: "utf8mb4",
    timezone: "Z",
    supportBigNumbers: true,
    bigNumberStrings: false,
  });
  try {
    return await fn(async (text, params) => (await conn.query(text, params))[0]);
  } finally {
    await conn.end();
  }
}

/** Creates database `opbench_<run>_<suffix>` on the server of `baseUrl` (optionally as a copy of `template`); returns its URL. */
export async function createDatabase(baseUrl, suffix, template) {
  const name = `opbench_${runTag}_${suffix}`;
  await withConnection(baseUrl, (q) =>
    engineOf(baseUrl) === "postgres"
      ? q(`create database ${name}${template ? ` template ${template} strategy file_copy` : ""}`)
      : q(`create database ${name} character set utf8mb4 collate utf8mb4_unicode_ci`),
  );
  created.push({ baseUrl, name });
  return withDatabase(baseUrl, name);
}

/** The real adapter's storage on a postgres:// or mysql:// `url` (it applies every migration when it opens). */
export const serverStorage = (url, maxConnections = 10) =>
  engineOf(url) === "postgres"
    ? createPostgresStorage({ url, maxConnections })
    : createMysqlStorage({ url, maxConnections });

/** Opens and closes the real adapter on `url`: it applies every migration (on PostgreSQL 033 adds the search keys index). */
async function migrate(url) {
  await (await serverStorage(url, 1)).close();
}

// 28 columns × 1,000 rows stays under PostgreSQL's 65,535 bind parameters.
const BATCH = 1000;

async function loadRows(url, count) {
  const postgres = engineOf(url) === "postgres";
  await withConnection(url, async (q) => {
    await q("begin");
    const org = organisationRow();
    await q(
      `insert into organisations (${Object.keys(org).join(", ")}) values (${Object.keys(org)
        .map((_, i) => (postgres ? `$${i + 1}` : "?"))
        .join(", ")})`,
      Object.values(org),
    );
    let columns;
    let batch = [];
    const flush = async () => {
      if (batch.length === 0) return;
      if (postgres) {
        const tuples = batch.map((_, r) => `(${columns.map((_, c) => `$${r * columns.length + c + 1}`).join(", ")})`);
        await q(`insert into patients (${columns.join(", ")}) values ${tuples.join(", ")}`, batch.flat());
      } else {
        // mysql2 expands a nested array into (…), (…) with every value escaped.
        await q(`insert into patients (${columns.join(", ")}) values ?`, [batch]);
      }
      batch = [];
    };
    for (const row of fixtureRows(count)) {
      columns ??= Object.keys(row);
      batch.push(columns.map((c) => row[c] ?? null));
      if (batch.length === BATCH) await flush();
    }
    await flush();
    await q("commit");
    // PostgreSQL: VACUUM also flushes the GIN pending list into the index and sets the visibility map, as a settled database has them.
    await q(postgres ? "vacuum analyze" : "analyze table organisations, patients");
  });
}

/**
 * Builds the fixture on the server of `baseUrl` and returns a function giving
 * each server its own copy: `copyFor(name)` resolves to a database URL. With
 * `shared` every caller gets the fixture database itself (search-only runs).
 */
export async function buildServerFixture(baseUrl, count, { shared = false } = {}) {
  const postgres = engineOf(baseUrl) === "postgres";
  const url = await createDatabase(baseUrl, "fixture");
  await migrate(url);
  await loadRows(url, count);
  const size = await withConnection(url, async (q) =>
    Number(
      (postgres
        ? await q("select pg_total_relation_size('patients') as b")
        : await q(
            "select data_length + index_length as b from information_schema.tables where table_schema = database() and table_name = 'patients'",
          ))[0].b,
    ),
  );
  const fixtureName = new URL(url).pathname.slice(1);
  const copyFor = async (suffix) => {
    if (shared) return url;
    // PostgreSQL copies the files, statistics included; no one may be connected to the template.
    if (postgres) return createDatabase(baseUrl, suffix, fixtureName);
    const target = await createDatabase(baseUrl, suffix);
    await migrate(target);
    await withConnection(target, async (q) => {
      for (const table of ["organisations", "patients"])
        await q(`insert into ${table} select * from ${fixtureName}.${table}`);
      await q("analyze table organisations, patients");
    });
    return target;
  };
  return { url, bytes: size, copyFor };
}

/** Drops every database this process created (best effort; the throw-away servers of .ci/with-databases.sh go anyway). */
export async function dropServerDatabases() {
  for (const { baseUrl, name } of created.splice(0).reverse()) {
    await withConnection(baseUrl, (q) =>
      q(
        engineOf(baseUrl) === "postgres"
          ? `drop database if exists ${name} with (force)`
          : `drop database if exists ${name}`,
      ),
    ).catch((error) => console.warn(`could not drop ${name}: ${error.message}`));
  }
}

/** Server version line for the report. */
export function serverVersion(url) {
  return withConnection(url, async (q) => (await q("select version() as v"))[0].v);
}
