// Other requests' latency while the token endpoint checks a burst of wrong client secrets (docs/authentication.md,
// "API clients and OAuth tokens"): the real runtime as a child process on a fresh SQLite database, GET /v2/patients
// sent one after another with a fresh HS256 token each (so every one verifies its signature), first alone, then
// while BENCH_BURST wrong secrets of unknown clients arrive at once, with one right secret among them. Prints
// latencies and the scrypt computations the runtime ran at once (its cap: half the cores).
//
//   npm run bench:token-burst
//
// Env: BENCH_BURST (20; at most 29, or the address limit of 30 failures a minute refuses the right secret too),
// BENCH_SAMPLES (200 reads alone). Exits 1 when an answer is not the expected one.
import { execFileSync } from "node:child_process";
import { join } from "node:path";
import { signAccessToken } from "@openpractice/runtime";
import {
  intEnv,
  machineLine,
  RUNTIME_CLI,
  runBenchmark,
  SECRET,
  startRuntime,
  stats,
  stopServer,
  temp,
} from "./harness.mjs";

const BURST = Math.min(29, intEnv("BENCH_BURST", 20));
const SAMPLES = intEnv("BENCH_SAMPLES", 200);
const f1 = (n) => n.toFixed(1);
const show = (label, xs) => {
  const s = stats(xs);
  return `${label}: p50 ${f1(s.p50)} ms, p95 ${f1(s.p95)} ms, max ${f1(Math.max(...xs))} ms (${xs.length} requests)`;
};

let userId = 1_000;
/** One read with a token no earlier request used (the verified-token cache cannot answer it). */
async function read(url) {
  const token = await signAccessToken(SECRET, { organisationId: 1, userId: userId++, scope: "read", ttlSeconds: 300 });
  const started = performance.now();
  const res = await fetch(`${url}/v2/patients?per_page=1`, { headers: { authorization: `Bearer ${token}` } });
  await res.arrayBuffer();
  if (!res.ok) throw new Error(`read answered ${res.status}`);
  return performance.now() - started;
}

function tokenRequest(url, clientId, secret) {
  const basic = Buffer.from(`${encodeURIComponent(clientId)}:${encodeURIComponent(secret)}`).toString("base64");
  return fetch(`${url}/oauth/token`, {
    method: "POST",
    headers: { authorization: `Basic ${basic}`, "content-type": "application/x-www-form-urlencoded" },
    body: "grant_type=client_credentials",
  });
}

async function main() {
  console.log(machineLine());
  const database = join(temp, "token-burst.db");
  const env = { ...process.env, DATABASE_URL: `sqlite:${database}`, OPENPRACTICE_DATA_DIR: temp, LOG_LEVEL: "silent" };
  execFileSync(process.execPath, [RUNTIME_CLI, "migrate"], { env, stdio: "ignore" });
  const created = JSON.parse(
    execFileSync(process.execPath, [RUNTIME_CLI, "org", "create", "--name", "Burst bench", "--plan", "enterprise"], {
      env,
    }).toString(),
  );
  const client = created.admin_client;
  const server = await startRuntime("token-burst", database, "warn");
  try {
    for (let i = 0; i < 20; i++) await read(server.url);
    const alone = [];
    for (let i = 0; i < SAMPLES; i++) alone.push(await read(server.url));
    const rightAlone = performance.now();
    const first = await tokenRequest(server.url, client.client_id, client.client_secret);
    if (first.status !== 200) throw new Error(`the right secret answered ${first.status} alone`);
    const rightAloneMs = performance.now() - rightAlone;

    let done = false;
    const burstStarted = performance.now();
    const burst = Promise.all(
      Array.from({ length: BURST }, (_, i) =>
        tokenRequest(server.url, `opc_burst${i}`, "ops_wrong").then((r) => r.status),
      ),
    ).finally(() => {
      done = true;
    });
    const during = [];
    const reads = (async () => {
      while (!done) during.push(await read(server.url));
    })();
    await new Promise((r) => setTimeout(r, 50));
    const rightStarted = performance.now();
    const right = await tokenRequest(server.url, client.client_id, client.client_secret);
    const rightMs = performance.now() - rightStarted;
    const statuses = await burst;
    const burstMs = performance.now() - burstStarted;
    await reads;
    if (right.status !== 200) throw new Error(`the right secret answered ${right.status} during the burst`);
    if (statuses.some((s) => s !== 401)) throw new Error(`the burst answered ${statuses.join(",")}`);

    console.log(show("reads alone", alone));
    console.log(show(`reads during ${BURST} concurrent wrong secrets`, during));
    console.log(
      `the burst took ${f1(burstMs)} ms; the right secret took ${f1(rightAloneMs)} ms alone, ${f1(rightMs)} ms during it`,
    );
  } finally {
    await stopServer(server);
  }
}

runBenchmark(main);
