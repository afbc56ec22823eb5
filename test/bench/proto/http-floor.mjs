// The fixed cost of answering over HTTP, against the same list in process: one organisation's cheap list (page 1,
// no search) timed in process, through the fetch handler without a socket, and over loopback HTTP with fetch
// (undici) and with node:http on a kept-alive socket; and a bare h3 app answering a constant, the floor of any
// answer over HTTP on this machine. One request at a time. See docs/vendor-scale.md ("Over HTTP").
//
//   SCALE_ORGANISATIONS=10 SCALE_PATIENTS=50000 OPENPRACTICE_TEST_REPLICA=0 bash .ci/with-databases.sh \
//     sh -c 'DATABASE_URL=$OPENPRACTICE_TEST_POSTGRES_URL node test/bench/proto/http-floor.mjs'
//
// Env: the tenant fixture's SCALE_* (tenant-fixture.mjs), BENCH_RUNS (400 per way, after 30 warm-up), BENCH_ORG
// (7: the organisation listed).
import http from "node:http";
import { createPractice } from "@openpractice/core";
import { createH3NodeServer } from "@openpractice/h3";
import { createHttpHandler, createJwtAuthenticator } from "@openpractice/http";
import { signAccessToken } from "@openpractice/runtime";
import { H3 } from "h3";
import { toNodeHandler } from "h3/node";
import { serverStorage } from "../fixture-server.mjs";
import { SECRET, intEnv, machineLine } from "../harness.mjs";
import { tenantEngine } from "../tenant-engines.mjs";
import { shapeFromEnv } from "../tenant-fixture.mjs";

const RUNS = intEnv("BENCH_RUNS", 400);
const ORG = intEnv("BENCH_ORG", 7);
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const url = process.env.DATABASE_URL;
if (!url) throw new Error("DATABASE_URL must be a postgres:// or mysql:// URL");
console.log(machineLine());
const fixture = await tenantEngine(url).buildFixture(url, shapeFromEnv(), () => {});
const storage = await serverStorage(fixture.url);
const practice = createPractice({
  storage,
  planLimits: { enterprise: 1e12, free: 1e12 },
  keys: { webhookSecretKey: "0".repeat(64), vapid: null },
});
const handler = createHttpHandler({ practice, authenticator: createJwtAuthenticator({ secret: SECRET }) });
const ours = createH3NodeServer(handler);
const bareApp = new H3();
bareApp.get("/const", () => ({ data: [], pagination: { page: 1 } }));
const bare = http.createServer(toNodeHandler(bareApp));
for (const server of [ours, bare]) await new Promise((resolve) => server.listen(0, "127.0.0.1", resolve));
const principal = { organisationId: ORG, userId: 1, name: null, scopes: ["read"], clinicIds: [], roles: [] };
const headers = {
  authorization: `Bearer ${await signAccessToken(SECRET, { organisationId: ORG, userId: 1, scope: "read" })}`,
};
const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const nodeGet = (server, path) =>
  new Promise((resolve, reject) => {
    const req = http.get({ host: "127.0.0.1", port: server.address().port, path, headers, agent }, (res) => {
      res.on("data", () => {});
      res.on("end", () => (res.statusCode === 200 ? resolve() : reject(new Error(`${path}: ${res.statusCode}`))));
    });
    req.on("error", reject);
  });
const fetchGet = async (server, path) => {
  const res = await fetch(`http://127.0.0.1:${server.address().port}${path}`, { headers });
  await res.arrayBuffer();
  if (res.status !== 200) throw new Error(`${path}: ${res.status}`);
};
const ways = [
  ["in process: PatientService.list", () => practice.patients.list(principal, {})],
  [
    "fetch handler, no socket",
    async () => {
      const res = await handler(new Request("http://127.0.0.1/v2/patients", { headers }), {
        remoteAddress: "127.0.0.1",
      });
      await res.arrayBuffer();
    },
  ],
  ["HTTP, node:http kept alive: ours", () => nodeGet(ours, "/v2/patients")],
  ["HTTP, fetch: ours", () => fetchGet(ours, "/v2/patients")],
  ["HTTP, node:http kept alive: bare h3, a constant", () => nodeGet(bare, "/const")],
  ["HTTP, fetch: bare h3, a constant", () => fetchGet(bare, "/const")],
];
try {
  console.log(`organisation ${ORG}, list page 1, ${RUNS} requests per way, one at a time\n`);
  console.log("| way | p50 ms | p95 ms |\n| --- | ---: | ---: |");
  for (const [label, run] of ways) {
    for (let i = 0; i < 30; i++) await run();
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await run();
      times.push(performance.now() - t);
    }
    console.log(`| ${label} | ${pct(times, 50).toFixed(2)} | ${pct(times, 95).toFixed(2)} |`);
  }
} finally {
  agent.destroy();
  for (const server of [ours, bare]) server.close();
  await storage.close();
}
