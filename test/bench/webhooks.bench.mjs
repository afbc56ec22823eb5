// Webhook delivery from one runtime process to a loopback receiver: sustained
// deliveries per second (fan-out 1 and 10) and commit-to-receipt latency at a
// fixed offered rate, with a baseline in the same run: a raw loop POSTing the
// same signed bodies with the same HTTP client (our transport), as many at a
// time as the job runner runs. See docs/performance.md.
//
//   npm run build && node test/bench/webhooks.bench.mjs
//
// Env: BENCH_WEBHOOK_EVENTS (3000 deliveries per throughput run), BENCH_WEBHOOK_RATE (500 events/s),
// BENCH_WEBHOOK_SECONDS (10 s of offered load), DATABASE_URL (default: a SQLite file), BENCH_CPU_PROF (a directory).
import { createServer } from "node:http";
import { join } from "node:path";
import { domainEvent, signWebhook } from "@openpractice/core";
import { createWebhookTransport, openStorage, signAccessToken } from "@openpractice/runtime";
import { busyShare, intEnv, machineLine, SECRET, startServer, RUNTIME_CLI, stopServer, temp } from "./harness.mjs";

const EVENTS = intEnv("BENCH_WEBHOOK_EVENTS", 3000);
const RATE = intEnv("BENCH_WEBHOOK_RATE", 500);
const SECONDS = intEnv("BENCH_WEBHOOK_SECONDS", 10);
const CONCURRENCY = 64; // as many at a time as the job runner runs (maxInFlight)
const f1 = (n) => n.toFixed(1);
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];

// --- the receiver: 200 at once, receipt times by event_id and by patient_id ---
const receipts = new Map();
let received = 0;
const receiver = createServer((req, res) => {
  const chunks = [];
  req.on("data", (c) => chunks.push(c));
  req.on("end", () => {
    received++;
    const body = JSON.parse(Buffer.concat(chunks).toString("utf8"));
    const key = `${body.data.organisation_id}:${body.data.patient_id}`;
    if (!receipts.has(key)) receipts.set(key, performance.now());
    res.writeHead(200).end();
  });
});
await new Promise((r) => receiver.listen(0, "127.0.0.1", r));
const receiverUrl = `http://127.0.0.1:${receiver.address().port}`;

const databaseUrl = process.env.DATABASE_URL || `sqlite:${join(temp, "webhooks.db")}`;
console.log(`${machineLine()}; ${databaseUrl.split(":")[0]}; CPU busy before the run: ${f1(await busyShare())}%`);
// BENCH_CPU_PROF=<dir>: the runtime writes a V8 CPU profile there when it stops.
const profile = process.env.BENCH_CPU_PROF ? ["--cpu-prof", `--cpu-prof-dir=${process.env.BENCH_CPU_PROF}`] : [];
const runtime = await startServer("runtime", [...profile, RUNTIME_CLI, "serve"], {
  DATABASE_URL: databaseUrl,
  OPENPRACTICE_DATA_DIR: temp,
  OPENPRACTICE_JWT_SECRET: SECRET,
  OPENPRACTICE_ENV: "development",
  OPENPRACTICE_WORKER_POLL_MS: "10",
  LOG_LEVEL: "warn",
});
const storage = await openStorage(databaseUrl);

async function subscribe(org, count) {
  const token = await signAccessToken(SECRET, { organisationId: org, userId: 1, scope: "read write" });
  const keys = [];
  for (let i = 0; i < count; i++) {
    const res = await fetch(`${runtime.url}/apis/v1/webhooks/subscriptions`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({
        name: `bench ${i}`,
        event_types: ["patient.created"],
        notification_url: `${receiverUrl}/org${org}/s${i}`,
      }),
    });
    if (res.status !== 201) throw new Error(`subscription: ${res.status} ${await res.text()}`);
    keys.push((await res.json()).signature_key);
  }
  return keys;
}

/** Commits `n` events for `org` in one transaction; returns the commit time. */
async function commit(org, firstId, n) {
  await storage.transaction(async (tx) => {
    for (let i = 0; i < n; i++)
      await tx.outbox.append(
        domainEvent("patient.created", { organisation_id: org, patient_id: firstId + i }, new Date()),
      );
  });
  return performance.now();
}

async function waitForDeliveries(target, timeoutMs = 300_000) {
  const deadline = performance.now() + timeoutMs;
  while (received < target) {
    if (performance.now() > deadline) throw new Error(`only ${received} of ${target} deliveries arrived`);
    await new Promise((r) => setTimeout(r, 5));
  }
  return performance.now();
}

async function throughput(org, fanOut) {
  await subscribe(org, fanOut);
  const events = Math.ceil(EVENTS / fanOut);
  const start = received;
  const t0 = performance.now();
  for (let i = 0; i < events; i += 100) await commit(org, i, Math.min(100, events - i));
  const t1 = await waitForDeliveries(start + events * fanOut);
  return { deliveries: events * fanOut, seconds: (t1 - t0) / 1000 };
}

async function baseline() {
  const transport = createWebhookTransport({ allowPrivate: true, allowedHosts: [] });
  const key = "k".repeat(128);
  const start = received;
  let next = 0;
  const t0 = performance.now();
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      while (next < EVENTS) {
        const n = next++;
        const body = JSON.stringify({
          event_id: `evt_${n}`,
          event_type: "patient.created",
          api_version: "2026-06-11",
          timestamp: Math.floor(Date.now() / 1000),
          data: { organisation_id: 999, patient_id: n },
          test: false,
        });
        const headers = {
          "content-type": "application/json",
          "user-agent": "WebhookService/2.0",
          "x-service-signature": signWebhook(key, Math.floor(Date.now() / 1000), body),
          "x-event-type": "patient.created",
          "x-event-id": `evt_${n}`,
          "x-delivery-id": `d${n}`,
          "x-service-api-version": "2026-06-11",
        };
        const r = await transport.post({ url: `${receiverUrl}/raw`, headers, body, timeoutMs: 10_000 });
        if (r.statusCode !== 200) throw new Error(`raw post: ${r.statusCode} ${r.error}`);
      }
    }),
  );
  const t1 = await waitForDeliveries(start + EVENTS);
  return { deliveries: EVENTS, seconds: (t1 - t0) / 1000 };
}

async function latency(org) {
  await subscribe(org, 1);
  const commits = new Map();
  const tick = 20; // ms: RATE / 50 events every 20 ms
  const perTick = Math.max(1, Math.round((RATE * tick) / 1000));
  const ticks = Math.round((SECONDS * 1000) / tick);
  const start = received;
  const t0 = performance.now();
  for (let t = 0; t < ticks; t++) {
    const due = t0 + t * tick;
    const wait = due - performance.now();
    if (wait > 0) await new Promise((r) => setTimeout(r, wait));
    const first = t * perTick;
    const at = await commit(org, first, perTick);
    for (let i = 0; i < perTick; i++) commits.set(`${org}:${first + i}`, at);
  }
  const offered = (ticks * perTick) / ((performance.now() - t0) / 1000);
  await waitForDeliveries(start + ticks * perTick);
  const lat = [...commits].map(([k, at]) => receipts.get(k) - at);
  return { offered, p50: pct(lat, 50), p99: pct(lat, 99), max: Math.max(...lat) };
}

try {
  const raw = await baseline();
  const one = await throughput(1, 1);
  const ten = await throughput(2, 10);
  const lat = await latency(3);
  const rate = (x) => x.deliveries / x.seconds;
  console.log(`| run | deliveries | seconds | deliveries/s | vs raw loop |\n| --- | ---: | ---: | ---: | ---: |`);
  console.log(
    `| raw loop (${CONCURRENCY} at a time, same client and bodies) | ${raw.deliveries} | ${f1(raw.seconds)} | ${f1(rate(raw))} | 1.00 |`,
  );
  console.log(
    `| runtime, fan-out 1 | ${one.deliveries} | ${f1(one.seconds)} | ${f1(rate(one))} | ${(rate(one) / rate(raw)).toFixed(2)} |`,
  );
  console.log(
    `| runtime, fan-out 10 | ${ten.deliveries} | ${f1(ten.seconds)} | ${f1(rate(ten))} | ${(rate(ten) / rate(raw)).toFixed(2)} |`,
  );
  console.log(
    `\ncommit to receipt at ${f1(lat.offered)} events/s offered for ${SECONDS} s: p50 ${f1(lat.p50)} ms, p99 ${f1(lat.p99)} ms, max ${f1(lat.max)} ms`,
  );
  const best = Math.max(rate(one), rate(ten));
  console.log(`target >= 1000 deliveries/s from one process: ${f1(best)} -> ${best >= 1000 ? "holds" : "MISSED"}`);
  console.log(
    `target p99 commit-to-receipt < 1 s at ${RATE}/s: ${f1(lat.p99)} ms -> ${lat.p99 < 1000 ? "holds" : "MISSED"}`,
  );
  console.log(
    `target >= half the raw loop's rate: ${(best / rate(raw)).toFixed(2)} -> ${best / rate(raw) >= 0.5 ? "holds" : "MISSED"}`,
  );
} finally {
  await storage.close();
  await stopServer(runtime);
  receiver.close();
}
