// PROTOTYPE server: our stack (storage → practice → HTTP handler → h3 host, as the
// runtime composes it) on PostgreSQL, with the search list changed from outside:
//   concurrent    the page and the count sent at the same time on two pooled connections
//   capped-count  the count stops at CAP+1 matching rows: count(*) over (… limit CAP+1)
//   capped-ids    one pass for both when few match: the ids of at most CAP+1 matches
//                 (select id … limit CAP+1); up to CAP, the total is their number and
//                 the page is read by id; above CAP, the total is capped and the page
//                 query runs as today
//   one-scan      the ids of at most CAP+1 matches, and the page by key when they are all,
//                 in one statement, beside a bounded B-tree walk (pg-search-one-scan.mjs)
// Env: DATABASE_URL, PORT, HOST, PROTO (comma list), CAP (1000), OPENPRACTICE_JWT_SECRET.
import { createPractice } from "@openpractice/core";
import { createH3NodeServer } from "@openpractice/h3";
import { createHttpHandler, createJwtAuthenticator } from "@openpractice/http";
import { containsPattern, rowToPatient } from "@openpractice/kysely";
import { createPostgresStorage } from "@openpractice/postgres";
import { sql } from "kysely";
import { oneScanList } from "./pg-search-one-scan.mjs";

const options = (process.env.PROTO ?? "").split(",").filter(Boolean);
for (const o of options)
  if (!["concurrent", "capped-count", "capped-ids", "one-scan"].includes(o)) throw new Error(`unknown option ${o}`);
const CAP = Number(process.env.CAP ?? 1000);
const SORT = {
  created_at: "created_at",
  updated_at: "updated_at",
  last_name: "last_name_sort",
  first_name: "first_name_sort",
};

const storage = await createPostgresStorage({ url: process.env.DATABASE_URL });
if (options.length > 0) {
  // Every repository instance (also those of transactions) shares this prototype; `db` is its private Kysely handle.
  const proto = Object.getPrototypeOf(storage.repositories.patients);
  const list = proto.list;
  proto.list = async function (c) {
    if (c.searchTerms.length === 0 || c.createdFrom || c.createdBefore || c.updatedFrom || c.updatedBefore)
      return list.call(this, c);
    if (options.includes("one-scan")) {
      const { rows, total } = await oneScanList(this.db, c, c.countLimit ?? CAP);
      return { patients: rows.map(rowToPatient), total };
    }
    let q = this.db.selectFrom("patients").where("organisation_id", "=", c.organisationId);
    if (c.status !== "all") q = q.where("status", "=", c.status);
    for (const term of c.searchTerms) q = q.where(sql`search_text like ${containsPattern(term)} escape ${"\\"}`);
    if (options.includes("capped-ids")) {
      const ids = (
        await q
          .select("id")
          .limit(CAP + 1)
          .execute()
      ).map((r) => r.id);
      const rows =
        ids.length > CAP
          ? await q
              .selectAll()
              .orderBy(SORT[c.sort], c.order)
              .orderBy("id", c.order)
              .limit(c.limit)
              .offset(c.offset)
              .execute()
          : ids.length === 0
            ? []
            : await this.db
                .selectFrom("patients")
                .selectAll()
                .where("id", "=", sql`any(${ids})`)
                .orderBy(SORT[c.sort], c.order)
                .orderBy("id", c.order)
                .limit(c.limit)
                .offset(c.offset)
                .execute();
      return { patients: rows.map(rowToPatient), total: ids.length };
    }
    const page = () =>
      q.selectAll().orderBy(SORT[c.sort], c.order).orderBy("id", c.order).limit(c.limit).offset(c.offset).execute();
    const count = options.includes("capped-count")
      ? () =>
          this.db
            .selectFrom(
              q
                .select(sql`1`.as("one"))
                .limit(CAP + 1)
                .as("m"),
            )
            .select((eb) => eb.fn.countAll().as("n"))
            .executeTakeFirstOrThrow()
      : () => q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow();
    const [rows, counted] = options.includes("concurrent")
      ? await Promise.all([page(), count()])
      : [await page(), await count()];
    return { patients: rows.map(rowToPatient), total: Number(counted.n) };
  };
}
const practice = createPractice({
  storage,
  planLimits: JSON.parse(process.env.OPENPRACTICE_PLAN_LIMITS ?? '{"enterprise":100000000}'),
});
const handler = createHttpHandler({
  practice,
  authenticator: createJwtAuthenticator({ secret: process.env.OPENPRACTICE_JWT_SECRET }),
});
const server = createH3NodeServer(handler);
server.listen(Number(process.env.PORT ?? 0), process.env.HOST ?? "127.0.0.1");
const stop = () => server.close(() => storage.close().then(() => process.exit(0)));
process.once("SIGTERM", stop);
process.once("SIGINT", stop);
