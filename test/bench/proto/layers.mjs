// PROTOTYPE: what each of our layers costs per registration, measured in
// process (no HTTP, one call at a time), today and with the prototype options.
//   node test/bench/proto/layers.mjs            (BENCH_PATIENTS, default 100000)
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { Kysely, SqliteDialect } from "kysely";
import BetterSqlite3 from "better-sqlite3";
import { signAccessToken } from "@openpractice/runtime";
import { buildFixture } from "../fixture.mjs";
import { SECRET, busyShare, intEnv, machineLine, temp } from "../harness.mjs";
import { composeOurs, PROTO_OPTIONS } from "./compose.mjs";

const PATIENTS = intEnv("BENCH_PATIENTS", 100_000);
const N = intEnv("BENCH_ITERATIONS", 3000);
const fixture = join(temp, "layers.db");
await buildFixture(fixture, PATIENTS);
const token = await signAccessToken(SECRET, { organisationId: 1, userId: 101, scope: "read write" });
const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
const principal = { organisationId: 1, userId: 101, name: null, scopes: ["read", "write"], clinicIds: [], roles: [] };

let seq = 0;
const draft = () => ({
  firstName: "Bench",
  lastName: `Layer ${seq++}`,
  dateOfBirth: "1980-05-17",
  email: `layer.${seq}@example.org`,
  phone: "(555) 010-2030",
});
const body = () =>
  JSON.stringify({
    first_name: "Bench",
    last_name: `Layer ${seq++}`,
    date_of_birth: "1980-05-17",
    email: `layer.${seq}@example.org`,
    phone: "(555) 010-2030",
  });

/** Mean µs of `fn` over N sequential calls, after N/10 warm-up calls. */
async function micros(fn) {
  for (let i = 0; i < N / 10; i++) await fn();
  const started = performance.now();
  for (let i = 0; i < N; i++) await fn();
  return ((performance.now() - started) / N) * 1000;
}

console.log(
  `${machineLine()}, CPU busy ${((await busyShare()) * 100).toFixed(0)}%, ${PATIENTS} patients, ${N} calls each`,
);
const rows = [];
for (const [label, options] of [
  ["today", []],
  ["all prototype options but fts", PROTO_OPTIONS.filter((o) => o !== "fts")],
  ["all prototype options", PROTO_OPTIONS],
]) {
  const file = join(temp, `layers-${rows.length}.db`);
  copyFileSync(fixture, file);
  const ours = await composeOurs(file, SECRET, options);
  const row = { label };
  row.jwt = await micros(() => ours.authenticator.authenticate(new Request("http://x/", { headers })));
  row.rateLimit = await micros(() => ours.practice.rateLimiter.consume(1, "v2"));
  row.register = await micros(() => ours.practice.patients.register(principal, draft()));
  row.handler = await micros(async () =>
    (await ours.handler(new Request("http://x/v2/patients", { method: "POST", headers, body: body() }))).arrayBuffer(),
  );
  rows.push(row);
  await ours.close();
}
// The baseline's whole database work: one INSERT … ON CONFLICT DO NOTHING RETURNING *.
{
  const file = join(temp, "layers-baseline.db");
  copyFileSync(fixture, file);
  const raw = new BetterSqlite3(file);
  const db = new Kysely({ dialect: new SqliteDialect({ database: raw }) });
  const now = new Date().toISOString();
  const insert = () =>
    db
      .insertInto("patients")
      .values({
        organisation_id: 1,
        first_name: "Bench",
        last_name: `Base ${seq++}`,
        date_of_birth: "1980-05-17",
        sex: "UNDEFINED",
        status: "active",
        identity_key: `k${seq}`,
        search_text: `bench base ${seq}`,
        first_name_sort: "bench",
        last_name_sort: `base ${seq}`,
        created_at: now,
        updated_at: now,
      })
      .onConflict((oc) => oc.columns(["organisation_id", "identity_key"]).doNothing())
      .returningAll()
      .executeTakeFirst();
  rows.push({ label: "baseline insert", register: await micros(insert) });
  raw.close();
}
const f = (n) => (n === undefined ? "" : n.toFixed(0));
console.log(
  "\n| variant | JWT verify µs | rate limit µs | register µs | whole handler, POST µs |\n| --- | ---: | ---: | ---: | ---: |",
);
for (const r of rows)
  console.log(`| ${r.label} | ${f(r.jwt)} | ${f(r.rateLimit)} | ${f(r.register)} | ${f(r.handler)} |`);
