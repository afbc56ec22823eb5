// Vendor scale: patient search and lists of one organisation in a database
// shared by many (tenant-fixture.mjs; tenant-fixture-mysql.mjs on MySQL and
// MariaDB), timed through PatientService.list in process and over HTTP, for the
// largest organisation and the one nearest 2,000 patients; the plans of every
// statement (PostgreSQL: EXPLAIN ANALYZE, BUFFERS; MariaDB: ANALYZE; MySQL 8:
// EXPLAIN ANALYZE); table and index sizes; create throughput against the same
// shape at 100,000 patients.
//
//   npm run bench:scale                                   (throw-away PostgreSQL, 100 × 1,000,000)
//   npm run bench:scale:mysql                             (throw-away MariaDB, 100 × 1,000,000)
//   DATABASE_URL=postgres://… SCALE_ORGANISATIONS=1000 SCALE_PATIENTS=10000000 \
//     node test/bench/tenant-scale.bench.mjs                (your server; the fixture is kept and reused)
//
// Env: the fixture's SCALE_* (tenant-fixture.mjs), BENCH_RUNS (200 timed calls per case after 20 warm-up),
// BENCH_CREATE_SECONDS (5 per round; 0 leaves creates out), BENCH_CREATE_ROUNDS (3 per database, the order alternating each round), BENCH_PLANS (1: print the plans; a file name: write them there as Markdown).
import { createPractice } from "@openpractice/core";
import { createH3NodeServer } from "@openpractice/h3";
import { createHttpHandler, createJwtAuthenticator } from "@openpractice/http";
import { signAccessToken } from "@openpractice/runtime";
import { writeFileSync } from "node:fs";
import { prng } from "./fixture.mjs";
import { serverStorage, serverVersion } from "./fixture-server.mjs";
import { SECRET, busyShare, intEnv, machineLine } from "./harness.mjs";
import { tenantEngine } from "./tenant-engines.mjs";
import { shapeFromEnv, tenantDraft, verifyTenantFixture } from "./tenant-fixture.mjs";
import { COMMON_LAST_NAMES } from "./tenant-names.mjs";

const RUNS = intEnv("BENCH_RUNS", 200);
const CREATE_SECONDS = Number(process.env.BENCH_CREATE_SECONDS ?? 5);
const CREATE_ROUNDS = intEnv("BENCH_CREATE_ROUNDS", 3);
const GOAL_MS = 20;
const f1 = (n) => n.toFixed(1);
const f2 = (n) => n.toFixed(2);
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const keys = { webhookSecretKey: "0".repeat(64), vapid: null };

const baseUrl = process.env.DATABASE_URL;
if (!baseUrl) throw new Error("DATABASE_URL must be a postgres:// or mysql:// URL (npm run bench:scale sets one)");
const engine = tenantEngine(baseUrl);
const param = engine.p;
const shape = shapeFromEnv();
console.log(`${machineLine()}, ${await serverVersion(baseUrl)}`);
console.log(
  `shape: ${shape.organisations} organisations, ${shape.patients} patients, ${shape.large} large, seed ${shape.seed}`,
);
const fixture = await engine.buildFixture(baseUrl, shape, (line) => console.log(line));
console.log(fixture.reused ? "fixture: reused" : `fixture: loaded in ${f1(fixture.seconds)} s`);
const verified = await verifyTenantFixture(fixture.url, shape, 300);
console.log(
  `fixture verified: ${verified.registered} drafts through PatientService.register stored as generated, ${verified.rechecked} rows re-derived`,
);

// The statements the adapter sends, recorded while `capture.list` is set.
const capture = { list: undefined };
const stopRecording = engine.record(capture);

const raw = await engine.connect(fixture.url);
const storage = await serverStorage(fixture.url);
const practice = createPractice({ storage, planLimits: { enterprise: 1e12 }, keys });
const handler = createHttpHandler({ practice, authenticator: createJwtAuthenticator({ secret: SECRET }) });
const server = createH3NodeServer(handler);
await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const origin = `http://127.0.0.1:${server.address().port}`;

try {
  const sizes = fixture.sizes.map((n, i) => ({ id: i + 1, n }));
  const largest = sizes.reduce((a, b) => (b.n > a.n ? b : a));
  const small = sizes.reduce((a, b) => (Math.abs(b.n - 2000) < Math.abs(a.n - 2000) ? b : a));
  const sorted = [...fixture.sizes].sort((a, b) => a - b);
  console.log(
    `organisation sizes: largest ${sorted.at(-1)}, median ${sorted[sorted.length >> 1]}, smallest ${sorted[0]}; measured: #${largest.id} (${largest.n}) and #${small.id} (${small.n})`,
  );
  const relations = await engine.sizes(raw);
  console.log(`sizes: ${relations.map((r) => `${r.name} ${f1(Number(r.bytes) / 2 ** 20)} MiB`).join(", ")}`);
  console.log(`load before the cases: ${Math.round((await busyShare()) * 100)}% of the cores busy`);

  const casesFor = async (org) => {
    const common = COMMON_LAST_NAMES.map((n) => n.toLowerCase());
    // A rare full name: a patient of this organisation whose last name is from the tail.
    const [rare] = await raw.q(
      `select first_name, last_name from patients where organisation_id = ${param(1)} and status = 'active'
         and ${engine.notIn("last_name_sort", 2)} order by id limit 1`,
      [org.id, common],
    );
    return [
      { label: "common last name (smith)", query: { search: "smith" } },
      {
        label: `rare full name (${rare.first_name} ${rare.last_name})`,
        query: { search: `${rare.first_name} ${rare.last_name}` },
      },
      { label: "email prefix (james.smith)", query: { search: "james.smith" } },
      { label: "phone fragment (0142)", query: { search: "0142" } },
      { label: "list, page 1", query: {} },
      { label: "list, page 200", query: { page: 200 } },
    ];
  };
  const httpPath = (q) =>
    `/v2/patients?${new URLSearchParams(Object.entries(q).map(([k, v]) => [k, String(v)])).toString()}`;

  const results = [];
  const plans = [];
  for (const org of [largest, small]) {
    const principal = { organisationId: org.id, userId: 1, name: null, scopes: ["read"], clinicIds: [], roles: [] };
    const token = await signAccessToken(SECRET, { organisationId: org.id, userId: 1, scope: "read write" });
    const headers = { authorization: `Bearer ${token}` };
    for (const c of await casesFor(org)) {
      capture.list = [];
      const page = await practice.patients.list(principal, c.query);
      const statements = capture.list;
      capture.list = undefined;
      for (let i = 0; i < 20; i++) await practice.patients.list(principal, c.query);
      const inProcess = [];
      for (let i = 0; i < RUNS; i++) {
        const t = performance.now();
        await practice.patients.list(principal, c.query);
        inProcess.push(performance.now() - t);
      }
      const http = [];
      for (let i = 0; i < RUNS + 20; i++) {
        const t = performance.now();
        const res = await fetch(origin + httpPath(c.query), { headers });
        await res.arrayBuffer();
        if (res.status !== 200) throw new Error(`GET ${httpPath(c.query)}: ${res.status}`);
        if (i >= 20) http.push(performance.now() - t);
      }
      results.push({ org, label: c.label, total: page.total, exact: page.totalExact, inProcess, http });
      for (const s of statements) {
        const plan = await engine.plan(raw, s.text, s.values);
        plans.push({ org, label: c.label, text: s.text, values: s.values, plan });
      }
    }
  }

  console.log(
    `\n| organisation | case | total | in process p50 / p95 ms | HTTP p50 / p95 ms | HTTP ÷ in-process p95 |\n| --- | --- | ---: | ---: | ---: | ---: |`,
  );
  for (const r of results) {
    console.log(
      `| #${r.org.id} (${r.org.n}) | ${r.label} | ${r.total}${r.exact ? "" : "+"} | ${f2(pct(r.inProcess, 50))} / ${f2(pct(r.inProcess, 95))} | ${f2(pct(r.http, 50))} / ${f2(pct(r.http, 95))} | ${f2(pct(r.http, 95) / pct(r.inProcess, 95))} |`,
    );
  }
  const worst = Math.max(...results.map((r) => pct(r.inProcess, 95)));
  const worstRatio = Math.max(...results.map((r) => pct(r.http, 95) / pct(r.inProcess, 95)));
  console.log(
    `\ngoal every case p95 < ${GOAL_MS} ms in process: worst ${f2(worst)} ms -> ${worst < GOAL_MS ? "holds" : "MISSED"}`,
  );
  console.log(
    `goal HTTP p95 ≤ 1.15 × in process: worst ${f2(worstRatio)} -> ${worstRatio <= 1.15 ? "holds" : "MISSED"}`,
  );

  if (CREATE_SECONDS > 0) await createComparison();

  const planFile = process.env.BENCH_PLANS;
  if (planFile) {
    const text = plans.map(
      (p) =>
        `### #${p.org.id} (${p.org.n} patients), ${p.label}\n\n\`\`\`sql\n${p.text.replace(/\s+/g, " ")}\n-- parameters ${JSON.stringify(p.values)}\n\`\`\`\n\n\`\`\`text\n${p.plan.join("\n")}\n\`\`\`\n`,
    );
    if (planFile === "1") console.log(`\n${text.join("\n")}`);
    else writeFileSync(planFile, `${text.join("\n")}`);
  }
} finally {
  stopRecording();
  server.close();
  await raw.end();
  await storage.close();
}

/**
 * Registrations per second, in process, 16 at a time into a scratch
 * organisation, alternating rounds between this database and the same shape at
 * 100,000 patients; the created rows are deleted afterwards.
 */
async function createComparison() {
  const reference = { ...shape, patients: 100_000 };
  const small = await engine.buildFixture(baseUrl, reference, () => {});
  const scratch = shape.organisations + 2;
  const measure = async (url) => {
    const s = await serverStorage(url);
    const c = await engine.connect(url);
    try {
      const now = new Date().toISOString();
      await c.q(engine.scratchOrganisation, engine.name === "postgres" ? [scratch, now] : [scratch, now, now]);
      const p = createPractice({ storage: s, planLimits: { enterprise: 1e12 }, keys });
      const principal = { organisationId: scratch, userId: 1, name: null, scopes: ["write"], clinicIds: [], roles: [] };
      const rnd = prng(Date.now() >>> 0);
      let done = 0;
      const until = performance.now() + CREATE_SECONDS * 1000;
      await Promise.all(
        Array.from({ length: 16 }, async () => {
          while (performance.now() < until) {
            await p.patients.register(principal, tenantDraft(rnd));
            done++;
          }
        }),
      );
      for (const table of ["outbox", "audit_events", "patients"])
        await c.q(`delete from ${table} where organisation_id = ${param(1)}`, [scratch]);
      return done / CREATE_SECONDS;
    } finally {
      await c.end();
      await s.close();
    }
  };
  const big = [];
  const ref = [];
  // The order alternates: each round's clean-up (its deletes) and the writes' flushing land on the round after.
  for (let round = 0; round < CREATE_ROUNDS; round++) {
    if (round % 2 === 0) {
      ref.push(await measure(small.url));
      big.push(await measure(fixture.url));
    } else {
      big.push(await measure(fixture.url));
      ref.push(await measure(small.url));
    }
  }
  const avg = (xs) => xs.reduce((a, b) => a + b, 0) / xs.length;
  console.log(
    `\ncreate, in process, 16 concurrent: ${shape.patients} patients ${f1(avg(big))}/s (${big.map(f1).join(", ")}), 100,000 patients ${f1(avg(ref))}/s (${ref.map(f1).join(", ")}) = ${f2(avg(big) / avg(ref))}; goal ≥ 0.90 -> ${avg(big) / avg(ref) >= 0.9 ? "holds" : "MISSED"}`,
  );
}
