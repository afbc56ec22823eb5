// The baseline: a bare h3 app doing the same SQL as our GET and POST
// /v2/patients through the same driver (baseline-db.mjs: Kysely over
// better-sqlite3, pg or mysql2, configured as our adapters configure them),
// with none of our layers: no JWT, no rate limit, no validation, no domain
// service, no transaction, no outbox, no logging.
// Env: DB_FILE (SQLite) or DATABASE_URL (postgres://, mysql://), PORT, HOST
// (default 127.0.0.1). Prints "listening <port>" when ready.
import { createServer } from "node:http";
import { H3 } from "h3";
import { toNodeHandler } from "h3/node";
import { openBaselineDb } from "./baseline-db.mjs";

const ORG = 1;
const db = await openBaselineDb();

const app = new H3();
app.get("/healthz", () => ({ status: "ok" }));

app.get("/v2/patients", (event) => db.search((event.url.searchParams.get("search") ?? "").toLowerCase()));

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
  const inserted = await db.insert(row);
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
