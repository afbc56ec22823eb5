import { compileByShape, executeInsertByShape, rowsShape, type Database } from "@openpractice/kysely";
import BetterSqlite3 from "better-sqlite3";
import { type Compilable, Kysely, MysqlDialect, PostgresDialect, type KyselyPlugin, SqliteDialect, sql } from "kysely";
import { createPool } from "mysql2";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines, freshDatabase, type EngineName } from "../support/engines.js";

// Hot inserts (a patient, its outbox event and audit entry, a rate-limit hit) are compiled by Kysely once per
// shape and dialect, then bound to later values (adapters/kysely/src/statements-by-shape.ts). The cache must give
// the statement Kysely would have built, on every engine, and step aside where it cannot.

/** A scratch table as Kysely sees it: the helpers are typed for the schema, so it is reached by cast. */
type Scratch = Kysely<Database> & { insertInto(table: "shape_rows"): ReturnType<Kysely<never>["insertInto"]> };

async function openEngine(engine: EngineName) {
  if (engine === "sqlite") {
    const db = new Kysely<Database>({ dialect: new SqliteDialect({ database: new BetterSqlite3(":memory:") }) });
    await sql`create table shape_rows (id integer primary key, a text not null, b integer, c text)`.execute(db);
    return { db, close: () => db.destroy() };
  }
  const fresh = await freshDatabase(engine);
  const db =
    engine === "postgres"
      ? new Kysely<Database>({ dialect: new PostgresDialect({ pool: new pg.Pool({ connectionString: fresh.url }) }) })
      : new Kysely<Database>({ dialect: new MysqlDialect({ pool: createPool({ uri: fresh.url }) }) });
  const id = engine === "postgres" ? sql`id serial primary key` : sql`id int auto_increment primary key`;
  await sql`create table shape_rows (${id}, a varchar(50) not null, b int, c varchar(50))`.execute(db);
  return {
    db,
    close: async () => {
      await db.destroy();
      await fresh.drop();
    },
  };
}

const rowsOf = async (db: Kysely<Database>) =>
  (await sql<{ a: string; b: number | null; c: string | null }>`select a, b, c from shape_rows order by id`.execute(db))
    .rows;

describe.each(availableEngines())("[%s] statements compiled by shape", (engine) => {
  let db: Kysely<Database>;
  let close: () => Promise<void>;
  beforeAll(async () => {
    ({ db, close } = await openEngine(engine));
  }, 60_000);
  afterAll(async () => close?.());

  /** An insert of `rows` through the cache, counting how often Kysely had to build it. */
  const insert = (rows: Array<Record<string, unknown>>, built: { n: number }) =>
    executeInsertByShape(db, "insert", "shape_rows", rows, () => {
      built.n++;
      return (db as Scratch).insertInto("shape_rows").values(rows as never) as unknown as Compilable;
    });

  it("builds a shape once, binds later rows to its SQL, and stores what Kysely would have", async () => {
    await sql`delete from shape_rows`.execute(db);
    const built = { n: 0 };
    await insert([{ a: "first", b: 1, c: null }], built);
    await insert([{ a: "second", b: null, c: "x" }], built);
    await insert([{ a: "third", b: 3, c: "y" }], built);
    expect(built.n).toBe(1);
    // Two rows are another shape; the second row's keys in another order bind in the first row's column order.
    await insert(
      [
        { a: "fourth", b: 4, c: "z" },
        { c: "w", b: 5, a: "fifth" },
      ],
      built,
    );
    await insert(
      [
        { a: "sixth", b: 6, c: null },
        { c: null, a: "seventh", b: 7 },
      ],
      built,
    );
    expect(built.n).toBe(2);
    expect(await rowsOf(db)).toEqual([
      { a: "first", b: 1, c: null },
      { a: "second", b: null, c: "x" },
      { a: "third", b: 3, c: "y" },
      { a: "fourth", b: 4, c: "z" },
      { a: "fifth", b: 5, c: "w" },
      { a: "sixth", b: 6, c: null },
      { a: "seventh", b: 7, c: null },
    ]);
  });

  it("leaves to Kysely a row whose columns differ, a column left undefined, and a value that is an expression", async () => {
    await sql`delete from shape_rows`.execute(db);
    const built = { n: 0 };
    // Rows of different columns: Kysely fills the gap with DEFAULT, so there is no shape.
    expect(rowsShape("shape_rows", [{ a: "x", b: 1 }, { a: "y" }])).toBeUndefined();
    await insert([{ a: "gap", b: 1 }, { a: "gap2" }], built);
    // An undefined column is omitted, as Kysely omits it: a shape of its own.
    expect(rowsShape("shape_rows", [{ a: "x", b: undefined, c: "z" }])?.shape).toBe("shape_rows(a,c)×1");
    await insert([{ a: "undefined b", b: undefined, c: "z" }], built);
    await insert([{ a: "undefined b again", b: undefined, c: "w" }], built);
    expect(built.n).toBe(2);
    // An expression is not a parameter: the shape is never cached, every call builds.
    const expression = () => ({ a: sql<string>`lower('EXPR')`, b: 2, c: null });
    expect(rowsShape("shape_rows", [expression()])).toBeUndefined();
    await insert([expression()], built);
    await insert([expression()], built);
    expect(built.n).toBe(4);
    expect(await rowsOf(db)).toEqual([
      { a: "gap", b: 1, c: null },
      { a: "gap2", b: null, c: null },
      { a: "undefined b", b: null, c: "z" },
      { a: "undefined b again", b: null, c: "w" },
      { a: "expr", b: 2, c: null },
      { a: "expr", b: 2, c: null },
    ]);
  });

  it("builds every statement of a connection with a plugin (a plugin rewrites the tree)", async () => {
    const seen: string[] = [];
    const recorder: KyselyPlugin = {
      transformQuery: (args) => {
        seen.push(args.node.kind);
        return args.node;
      },
      transformResult: async (args) => args.result,
    };
    const withPlugin = db.withPlugin(recorder);
    const built = { n: 0 };
    const build = () => {
      built.n++;
      return (withPlugin as Scratch).insertInto("shape_rows").values({ a: "plugin", b: 1, c: null }) as never;
    };
    for (let i = 0; i < 2; i++)
      await withPlugin.executeQuery(
        compileByShape(withPlugin, { shape: "plugin rows", values: ["plugin", 1, null] }, build),
      );
    expect(built.n).toBe(2);
    expect(seen).toEqual(["InsertQueryNode", "InsertQueryNode"]);
  });
});
