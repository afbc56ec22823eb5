// The baseline: a bare h3 app doing the same SQL as our GET and POST
// /v2/patients (including the FTS5 search path) through the same driver (Kysely + SqliteDialect + better-sqlite3,
// same pragmas as adapters/sqlite), with none of our layers: no JWT, no rate
// limit, no validation, no domain service, no transaction, no outbox, no logging.
// Env: DB_FILE, PORT, HOST (default 127.0.0.1). Prints "listening <port>" when ready.
import { createServer } from "node:http";
import BetterSqlite3 from "better-sqlite3";
import { H3 } from "h3";
import { toNodeHandler } from "h3/node";
import { Kysely, SqliteDialect, sql } from "kysely";

const ORG = 1;
const database = new BetterSqlite3(process.env.DB_FILE);
database.pragma("journal_mode = WAL");
database.pragma("busy_timeout = 5000");
database.pragma("foreign_keys = ON");
database.pragma("synchronous = NORMAL");
const db = new Kysely({ dialect: new SqliteDialect({ database }) });

// The same "contains" pattern as adapters/kysely's containsPattern.
const contains = (term) => `%${term.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

const app = new H3();
app.get("/healthz", () => ({ status: "ok" }));

// Our SQLite adapter answers searches of 3+ characters from its FTS5 trigram index
// (adapters/sqlite/src/patient-search-fts.ts); the baseline runs that same SQL.
const hasSearchIndex = Boolean(database.prepare("select 1 from sqlite_master where name = 'patients_search'").get());

async function indexedSearch(term) {
  const match = `"${term.replaceAll('"', '""')}"`;
  const from = sql`from patients_search s cross join patients p on p.id = s.rowid
    where patients_search match ${match} and p.organisation_id = ${ORG} and p.status = ${"active"}`;
  const rows = await sql`select p.* ${from} order by p.created_at desc, p.id desc limit ${25} offset ${0}`.execute(db);
  const counted = await sql`select count(*) as n ${from}`.execute(db);
  return { data: rows.rows, total: Number(counted.rows[0].n) };
}

app.get("/v2/patients", async (event) => {
  const term = (event.url.searchParams.get("search") ?? "").toLowerCase();
  if (hasSearchIndex && [...term].length >= 3) return indexedSearch(term);
  let filtered = db.selectFrom("patients").where("organisation_id", "=", ORG).where("status", "=", "active");
  if (term) filtered = filtered.where(sql`search_text like ${contains(term)} escape ${"\\"}`);
  const rows = await filtered.selectAll().orderBy("created_at", "desc").orderBy("id", "desc").limit(25).offset(0).execute();
  const counted = await filtered.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
  return { data: rows, total: Number(counted.n) };
});

app.post("/v2/patients", async (event) => {
  const b = await event.req.json();
  const now = new Date().toISOString();
  const lower = (s) => (s ?? "").toLowerCase();
  const row = {
    organisation_id: ORG,
    first_name: b.first_name,
    last_name: b.last_name,
    date_of_birth: b.date_of_birth,
    sex: "UNDEFINED",
    phone: b.phone ?? null,
    email: b.email ?? null,
    address_country: "US",
    status: "active",
    identity_key: `${lower(b.first_name)}|${lower(b.last_name)}|${b.date_of_birth}`,
    search_text: [b.first_name, b.last_name, b.email].filter(Boolean).map(lower).join(" "),
    first_name_sort: lower(b.first_name),
    last_name_sort: lower(b.last_name),
    created_at: now,
    updated_at: now,
  };
  // The same insert-unless-duplicate statement as insertIgnoringDuplicate, returning the row in one go.
  const inserted = await db
    .insertInto("patients")
    .values(row)
    .onConflict((oc) => oc.columns(["organisation_id", "identity_key"]).doNothing())
    .returningAll()
    .executeTakeFirst();
  event.res.status = inserted ? 201 : 409;
  return inserted ?? { error: "duplicate" };
});

const server = createServer(toNodeHandler(app));
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1", () => {
  process.stdout.write(`listening ${server.address().port}\n`);
});
const stop = () => server.close(() => process.exit(0));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
