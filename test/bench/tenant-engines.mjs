// What tenant-scale.bench.mjs asks of a database server, for PostgreSQL and for MySQL / MariaDB: the fixture,
// a raw connection, the statements the adapter sends, their plans and the sizes of the patient tables.
import mysql from "mysql2";
import pg from "pg";
import { engineOf } from "./fixture-server.mjs";
import { buildTenantFixtureMysql, mysqlConnection } from "./tenant-fixture-mysql.mjs";
import { buildTenantFixture } from "./tenant-fixture.mjs";

/** Records every statement a driver's connections send while `sink.list` is set (the adapter's own statements). */
function recordStatements(proto, sink) {
  const query = proto.query;
  proto.query = function (text, values, ...rest) {
    if (sink.list && typeof text === "string") sink.list.push({ text, values });
    return query.call(this, text, values, ...rest);
  };
  return () => {
    proto.query = query;
  };
}

const postgres = {
  name: "postgres",
  buildFixture: buildTenantFixture,
  p: (i) => `$${i}`,
  async connect(url) {
    const client = new pg.Client({ connectionString: url });
    await client.connect();
    return { q: async (text, values) => (await client.query(text, values)).rows, end: () => client.end() };
  },
  // node-postgres: every statement goes through Client#query.
  record: (sink) => recordStatements(pg.Client.prototype, sink),
  notIn: (column, i) => `${column} <> all($${i}::text[])`,
  scratchOrganisation: `insert into organisations (id, name, plan, is_active, created_at, updated_at)
    values ($1, 'Create benchmark', 'enterprise', 1, $2, $2) on conflict (id) do nothing`,
  async sizes({ q }) {
    return q(`select c.relname as name, pg_relation_size(c.oid) as bytes from pg_class c
      where c.relname = 'patients' or c.oid in (select indexrelid from pg_index where indrelid = 'patients'::regclass)
      order by 1`);
  },
  async plan({ q }, text, values) {
    return (await q(`explain (analyze, buffers) ${text}`, values)).map((r) => r["QUERY PLAN"]);
  },
};

const mysqlEngine = {
  name: "mysql",
  buildFixture: buildTenantFixtureMysql,
  p: () => "?",
  async connect(url) {
    const conn = await mysqlConnection(url);
    const [[version]] = await conn.query("select version() as v");
    return {
      q: async (text, values) => (await conn.query(text, values))[0],
      end: () => conn.end(),
      mariadb: /mariadb/i.test(version.v),
    };
  },
  // mysql2 (Kysely's MysqlDialect): pool connections are Connections; every statement goes through #query.
  record: (sink) => recordStatements(mysql.Connection.prototype, sink),
  notIn: (column) => `${column} not in (?)`,
  scratchOrganisation: `insert ignore into organisations (id, name, plan, is_active, created_at, updated_at)
    values (?, 'Create benchmark', 'enterprise', 1, ?, ?)`,
  async sizes({ q }) {
    const tables = await q(`select table_name as name, data_length as bytes from information_schema.tables
      where table_schema = database() and table_name in ('patients', 'patient_search_trigrams')`);
    const indexes =
      await q(`select concat(table_name, '.', index_name) as name, stat_value * @@innodb_page_size as bytes
      from mysql.innodb_index_stats where database_name = database() and stat_name = 'size'
        and table_name in ('patients', 'patient_search_trigrams') and index_name <> 'PRIMARY'`);
    return [...tables, ...indexes];
  },
  // MariaDB: ANALYZE runs the statement and adds r_rows / r_filtered to EXPLAIN's table; MySQL 8: EXPLAIN ANALYZE.
  async plan({ q, mariadb }, text, values) {
    if (!mariadb) return (await q(`explain analyze ${text}`, values)).map((r) => Object.values(r)[0]);
    const rows = await q(`analyze ${text}`, values);
    const columns = ["id", "select_type", "table", "type", "key", "rows", "r_rows", "filtered", "r_filtered", "Extra"];
    return [columns.join(" | "), ...rows.map((r) => columns.map((c) => r[c] ?? "").join(" | "))];
  },
};

/** The engine of a postgres:// or mysql:// URL. */
export function tenantEngine(url) {
  const engine = engineOf(url);
  if (engine === "postgres") return postgres;
  if (engine === "mysql") return mysqlEngine;
  throw new Error("DATABASE_URL must be a postgres:// or mysql:// URL");
}
