// The baseline's SQL, per engine, through the same driver and Kysely dialect as
// our adapter: `search(term)` → { data, total } and `insert(row)` → the stored
// row, or undefined when (organisation_id, identity_key) already exists.
//   DB_FILE=<file>           SQLite (better-sqlite3, the adapter's four pragmas)
//   DATABASE_URL=postgres:// PostgreSQL (pg pool of 10, as createPostgresStorage)
//   DATABASE_URL=mysql://    MySQL/MariaDB (mysql2 pool of 10, the options of createMysqlStorage)
import { Kysely, MysqlDialect, PostgresDialect, SqliteDialect, sql } from "kysely";

const ORG = 1;
// Searches count at most this many matches, as the runtime does (OPENPRACTICE_SEARCH_COUNT_LIMIT, default 1000; 0 = exact).
const COUNT_LIMIT = Number(process.env.OPENPRACTICE_SEARCH_COUNT_LIMIT ?? 1000) || null;
/** The reported total: exact up to the limit, the limit above it (ours adds total_count_exact: false). */
const reported = (n) => (COUNT_LIMIT !== null && n > COUNT_LIMIT ? COUNT_LIMIT : n);
// The same "contains" pattern as adapters/kysely's containsPattern.
const contains = (term) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

/** The shared list query of adapters/kysely (patient-repository.ts list()) for one search term. */
async function likeSearch(db, term) {
  let filtered = db.selectFrom("patients").where("organisation_id", "=", ORG).where("status", "=", "active");
  if (term) filtered = filtered.where(sql`search_text like ${contains(term)} escape ${"\\"}`);
  // One row more than the page (has_next) and a bounded count, at the same time: the runtime's SQL.
  const count =
    COUNT_LIMIT === null || !term
      ? filtered.select((eb) => eb.fn.countAll().as("n"))
      : db
          .selectFrom(
            filtered
              .select(sql.lit(1).as("one"))
              .limit(COUNT_LIMIT + 1)
              .as("m"),
          )
          .select((eb) => eb.fn.countAll().as("n"));
  const [rows, counted] = await Promise.all([
    filtered.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(26).offset(0).execute(),
    count.executeTakeFirstOrThrow(),
  ]);
  return { data: rows.slice(0, 25), total: reported(Number(counted.n)) };
}

async function openSqlite(file) {
  const { default: BetterSqlite3 } = await import("better-sqlite3");
  const database = new BetterSqlite3(file);
  database.pragma("journal_mode = WAL");
  database.pragma("busy_timeout = 5000");
  database.pragma("foreign_keys = ON");
  database.pragma("synchronous = NORMAL");
  const db = new Kysely({ dialect: new SqliteDialect({ database }) });
  // Our SQLite adapter answers searches of 3+ characters from its FTS5 trigram index
  // (adapters/sqlite/src/patient-search-fts.ts); the baseline runs that same SQL.
  const hasSearchIndex = Boolean(database.prepare("select 1 from sqlite_master where name = 'patients_search'").get());
  async function indexedSearch(term) {
    const match = `"${term.replaceAll('"', '""')}"`;
    const from = sql`from patients_search s cross join patients p on p.id = s.rowid
      where patients_search match ${match} and p.organisation_id = ${ORG} and p.status = ${"active"}`;
    const rows = await sql`select p.* ${from} order by p.created_at desc, p.id desc limit ${26} offset ${0}`.execute(
      db,
    );
    const counted =
      COUNT_LIMIT === null
        ? await sql`select count(*) as n ${from}`.execute(db)
        : await sql`select count(*) as n from (select 1 ${from} limit ${COUNT_LIMIT + 1})`.execute(db);
    return { data: rows.rows.slice(0, 25), total: reported(Number(counted.rows[0].n)) };
  }
  return {
    search: (term) => (hasSearchIndex && [...term].length >= 3 ? indexedSearch(term) : likeSearch(db, term)),
    insert: (row) => insertReturning(db, row),
  };
}

/** The insert-unless-duplicate statement of insertIfAbsent on engines with ON CONFLICT and RETURNING: one statement. */
const insertReturning = (db, row) =>
  db
    .insertInto("patients")
    .values(row)
    .onConflict((oc) => oc.columns(["organisation_id", "identity_key"]).doNothing())
    .returningAll()
    .executeTakeFirst();

/** The search an engine's own index answers (`index.list`, as our repository calls it) for one term of organisation ORG. */
function indexedSearchOf(db, index) {
  return async (term) => {
    const criteria = {
      organisationId: ORG,
      searchTerms: [term],
      status: "active",
      sort: "created_at",
      order: "desc",
      limit: 26,
      offset: 0,
      countLimit: COUNT_LIMIT ?? undefined,
    };
    const { rows, total } = await index.list(db, criteria);
    return { data: rows.slice(0, 25), total: reported(total) };
  };
}

async function openPostgres(url) {
  const { default: pg } = await import("pg");
  const pool = new pg.Pool({ connectionString: url, max: 10 });
  const db = new Kysely({ dialect: new PostgresDialect({ pool }) });
  // Our PostgreSQL adapter answers searches of 3+ characters from its organisation-scoped search keys
  // (adapters/postgres/src/patient-search-keys.ts); the baseline sends those same statements.
  const { keyedPatientSearch } = await import("@openpractice/postgres");
  const keys = (await pool.query("select 1 from pg_proc where proname = 'patient_search_keys'")).rowCount > 0;
  const indexedSearch = indexedSearchOf(db, keyedPatientSearch);
  return {
    search: (term) => (keys && [...term].length >= 3 ? indexedSearch(term) : likeSearch(db, term)),
    insert: (row) => insertReturning(db, row),
  };
}

async function openMysql(url) {
  const { createPool } = await import("mysql2");
  const pool = createPool({
    uri: url,
    connectionLimit: 10,
    charset: "utf8mb4",
    timezone: "Z",
    supportBigNumbers: true,
    bigNumberStrings: false,
  });
  const db = new Kysely({ dialect: new MysqlDialect({ pool }) });
  // Our MySQL adapter answers searches of 3+ characters from its trigram side table
  // (adapters/mysql/src/patient-search-from-trigrams.ts); the baseline sends those same statements.
  // In a large organisation it reads the kept counts too (patient_counts): both tables, or the LIKE scan.
  const { trigramPatientSearch, TRIGRAM_TABLE } = await import("@openpractice/mysql");
  const { PATIENT_COUNTS_TABLE } = await import("@openpractice/kysely");
  const [tables] = await pool
    .promise()
    .query("select 1 from information_schema.tables where table_schema = database() and table_name in (?, ?)", [
      TRIGRAM_TABLE,
      PATIENT_COUNTS_TABLE,
    ]);
  const indexedSearch = indexedSearchOf(db, trigramPatientSearch);
  return {
    search: (term) => (tables.length === 2 && [...term].length >= 3 ? indexedSearch(term) : likeSearch(db, term)),
    // insertIfAbsent without RETURNING: INSERT IGNORE, then the row read back by identity key.
    async insert(row) {
      const result = await db.insertInto("patients").ignore().values(row).executeTakeFirst();
      if (Number(result.numInsertedOrUpdatedRows ?? 0n) !== 1) return undefined;
      return db
        .selectFrom("patients")
        .selectAll()
        .where("organisation_id", "=", ORG)
        .where("identity_key", "=", row.identity_key)
        .executeTakeFirst();
    },
  };
}

export function openBaselineDb(env = process.env) {
  if (env.DB_FILE) return openSqlite(env.DB_FILE);
  const url = env.DATABASE_URL ?? "";
  if (/^postgres(ql)?:\/\//.test(url)) return openPostgres(url);
  if (url.startsWith("mysql://")) return openMysql(url);
  throw new Error("baseline: set DB_FILE (SQLite) or DATABASE_URL (postgres:// or mysql://)");
}
