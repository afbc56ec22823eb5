// The clinic day: a realistic mix of requests per simulated clinic over HTTP against the real runtime (a child
// process, as deployed). Each clinic is an organisation with providers, working hours, an appointment type, a few
// thousand patients, API clients for its front desk and its clinicians, a webhook subscription to a receiver in this
// process and a push device per provider on a push service in this process. Each of its sessions loops a visit:
// patient search, slot lookup, booking, check-in (with a push to the provider), the SOAP note (create, three
// sections read and saved), sign and complete, which queues the PDF summaries as a background job and records the
// claim. See docs/performance.md ("Clinic day").
//
//   npm run bench:clinic-day                                             SQLite (a temp file)
//   DATABASE_URL=postgres://… node test/bench/clinic-day.bench.mjs        PostgreSQL (after npm run build)
//   DATABASE_URL=mysql://… node test/bench/clinic-day.bench.mjs           MySQL / MariaDB
//
// With DATABASE_URL the run creates its own database on that server (opbench_*, dropped at the end).
// Env: BENCH_CLINICS (10), BENCH_SESSIONS_PER_CLINIC (2), BENCH_PATIENTS_PER_CLINIC (3000), BENCH_DURATION_SECONDS
// (60), BENCH_WARMUP_SECONDS (10), BENCH_RATE (200 operations/s offered in all, each session paced evenly; 0: as
// fast as the sessions go, which gives the most the server does), BENCH_WORKERS (1; above 1 also runs 1 worker and prints the ratio),
// BENCH_CPU_PROF (a directory for the runtime's V8 CPU profiles).
// Exits 1 when any response has another status than the one expected, or a webhook or push never arrives.
import { createECDH, randomBytes } from "node:crypto";
import { execFileSync } from "node:child_process";
import { createServer } from "node:http";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import { decrypt } from "http_ece";
import { DateTime } from "luxon";
import { createPractice } from "@openpractice/core";
import { openStorage, signAccessToken } from "@openpractice/runtime";
import { cpuSeconds, processTree } from "./cpu-shares.mjs";
import { fixtureRows } from "./fixture.mjs";
import { createDatabase, dropServerDatabases, engineOf, serverVersion } from "./fixture-server.mjs";
import {
  busyShare,
  intEnv,
  machineLine,
  RUNTIME_CLI,
  SECRET,
  startRuntime,
  stats,
  stopServer,
  temp,
} from "./harness.mjs";

const CLINICS = intEnv("BENCH_CLINICS", 10);
const SESSIONS = intEnv("BENCH_SESSIONS_PER_CLINIC", 2);
const PATIENTS = intEnv("BENCH_PATIENTS_PER_CLINIC", 3000);
const DURATION = intEnv("BENCH_DURATION_SECONDS", 60);
const WARMUP = intEnv("BENCH_WARMUP_SECONDS", 10);
const WORKERS = intEnv("BENCH_WORKERS", 1);
// Operations per second offered by all sessions together, evenly paced; 0: every session as fast as it can.
const RATE = intEnv("BENCH_RATE", 200);
const DATABASE_URL = process.env.DATABASE_URL || undefined;
const ENGINE = engineOf(DATABASE_URL);
const ZONE = "America/Chicago";
// The operations of a visit, in order; the report lists them so.
const OPS = [
  "search patients",
  "slot lookup",
  "book",
  "check in",
  "push to provider",
  "create note",
  "read form",
  "save form",
  "sign",
  "complete",
];
const f1 = (n) => n.toFixed(1);
const f2 = (n) => n.toFixed(2);

class BenchError extends Error {}

// --- the receivers: webhooks and Web Push, on loopback in this process -------------------------------------------
/** Receipt times by key, answered times by key: the lag is receipt minus the answer of the request that committed. */
const webhooks = { received: 0, expected: 0, unsigned: 0, receipts: new Map(), answered: new Map() };
const pushes = { received: 0, expected: 0, refused: 0, receipts: new Map(), answered: new Map() };

const readBody = (req) =>
  new Promise((resolve) => {
    const chunks = [];
    req.on("data", (c) => chunks.push(c));
    req.on("end", () => resolve(Buffer.concat(chunks)));
  });

const webhookReceiver = createServer(async (req, res) => {
  const body = JSON.parse((await readBody(req)).toString("utf8"));
  const at = performance.now();
  webhooks.received++;
  // Every delivery is signed; a receiver that checks signatures needs the header.
  if (!req.headers["x-service-signature"]) webhooks.unsigned++;
  const d = body.data;
  webhooks.receipts.set(`${body.event_type}:${d.organisation_id}:${d.soap_note_id ?? d.appointment_id}`, at);
  res.writeHead(200).end();
});

/** One browser per provider: its key pair, made here as a browser makes it; the push service decrypts with it. */
const browsers = new Map();
const pushService = createServer(async (req, res) => {
  const body = await readBody(req);
  const at = performance.now();
  const browser = browsers.get(req.url?.split("/").pop());
  // The checks a push service makes before it accepts: VAPID authorization, the aes128gcm encoding, a TTL.
  if (
    !browser ||
    !/^vapid t=[\w-]+\.[\w-]+\.[\w-]+, k=[\w-]+$/.test(req.headers.authorization ?? "") ||
    req.headers["content-encoding"] !== "aes128gcm" ||
    !/^\d+$/.test(String(req.headers.ttl ?? ""))
  ) {
    pushes.refused++;
    res.writeHead(400).end();
    return;
  }
  const message = JSON.parse(
    decrypt(body, { version: "aes128gcm", privateKey: browser.ecdh, authSecret: browser.keys.auth }).toString("utf8"),
  );
  pushes.received++;
  pushes.receipts.set(message.link, at);
  res.writeHead(201).end();
});

async function listen(server) {
  await new Promise((r) => server.listen(0, "127.0.0.1", r));
  return `http://127.0.0.1:${server.address().port}`;
}

// --- HTTP with the expected status ---------------------------------------------------------------------------------
let recording = false;
let windowRequests = 0;
const samples = new Map(OPS.map((op) => [op, []]));

/**
 * A session's pace: one operation every `interval` ms. One that is late goes at once, but a session keeps at most
 * one interval of backlog (after a slow answer it does not catch up in a burst), so the rate reached is never above
 * the one offered, and falls below it when the server cannot keep up. `offset` staggers the sessions' first
 * operations evenly over an interval: started together, they would send their requests in bursts.
 */
function pacer(interval, offset) {
  let due = performance.now() + offset;
  return async () => {
    if (interval === 0) return;
    const now = performance.now();
    if (due > now) await new Promise((r) => setTimeout(r, due - now));
    due = Math.max(due, now - interval) + interval;
  };
}

/** One request; throws unless it answers `expect`. Timed under `op` while the measured window is open. */
async function request(base, op, method, path, token, body, expect = 200) {
  const started = performance.now();
  const res = await fetch(base + path, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(body === undefined ? {} : { "content-type": "application/json" }),
    },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  const ms = performance.now() - started;
  if (res.status !== expect)
    throw new BenchError(`${op}: ${method} ${path} answered ${res.status}, expected ${expect}: ${text.slice(0, 500)}`);
  const json = text ? JSON.parse(text) : null;
  // v1 answers some errors with HTTP 200 and a code other than 2000 (spec 7.1).
  if (json && typeof json.code === "number" && json.code !== 2000)
    throw new BenchError(`${op}: ${method} ${path} answered code ${json.code}: ${text.slice(0, 500)}`);
  if (recording) {
    windowRequests++;
    if (op) samples.get(op).push(ms);
  }
  return json;
}

// --- setup ----------------------------------------------------------------------------------------------------------
/** The database of one run: SQLite file or a fresh database on the DATABASE_URL server. */
async function newDatabase(name) {
  if (ENGINE === "sqlite") return join(temp, `${name}.db`);
  return createDatabase(DATABASE_URL, name);
}

/**
 * In process through the library (minutes over HTTP): per clinic an organisation on the enterprise plan, a clinic,
 * one provider per session with working hours every day 07:00-19:00, a 30-minute appointment type and the patients
 * (the rows of fixture.mjs, bulk-inserted through the adapter's Kysely). Returns what the sessions need.
 */
async function seed(databaseUrl) {
  const storage = await openStorage(databaseUrl);
  const practice = createPractice({ storage, keys: { webhookSecretKey: "0".repeat(64), vapid: null } });
  const r = storage.repositories;
  const now = new Date();
  const clinics = [];
  const patientRows = [...fixtureRows(PATIENTS)];
  const tomorrow = DateTime.now().setZone(ZONE).plus({ days: 1 }).startOf("day");
  try {
    for (let k = 1; k <= CLINICS; k++) {
      await r.organisations.ensure({ id: k, name: `Bench clinic ${k}`, plan: "enterprise", now });
      const clinic = await r.organisations.ensureClinic({ organisationId: k, name: "Main", timeZone: ZONE });
      const principal = { organisationId: k, userId: 1, name: "Bench", scopes: ["admin"], clinicIds: [], roles: [] };
      const type = await r.catalog.ensureAppointmentCategory({
        organisationId: k,
        name: "Treatment",
        type: "IN_PERSON",
        durationMinutes: 30,
      });
      const providers = [];
      for (let s = 0; s < SESSIONS; s++) {
        const p = await r.organisations.upsertProvider({
          organisationId: k,
          userId: 201 + s,
          firstName: "Provider",
          lastName: `No ${s}`,
          npi: null,
          supervisingUserId: null,
          clinicIds: [clinic.id],
        });
        await practice.schedules.create(principal, p.id, {
          clinicId: clinic.id,
          weekdays: ["MO", "TU", "WE", "TH", "FR", "SA", "SU"],
          startTime: "07:00",
          endTime: "19:00",
          effectiveFrom: tomorrow.toISODate(),
        });
        providers.push(p);
      }
      for (let i = 0; i < patientRows.length; i += 500)
        await storage.db
          .insertInto("patients")
          .values(patientRows.slice(i, i + 500).map((row) => ({ ...row, organisation_id: k })))
          .execute();
      // Last names to search by, as a front desk types them.
      const names = (
        await storage.db
          .selectFrom("patients")
          .select("last_name_sort")
          .where("organisation_id", "=", k)
          .where("status", "=", "active")
          .limit(200)
          .execute()
      ).map((x) => x.last_name_sort);
      clinics.push({ id: k, clinicId: clinic.id, typeId: type.id, providers, names, firstDay: tomorrow });
    }
  } finally {
    await storage.close();
  }
  return clinics;
}

async function oauthToken(base, client) {
  const res = await fetch(`${base}/oauth/token`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({
      grant_type: "client_credentials",
      client_id: client.client_id,
      client_secret: client.client_secret,
    }),
  });
  if (res.status !== 200) throw new BenchError(`oauth/token answered ${res.status}: ${await res.text()}`);
  return (await res.json()).access_token;
}

/**
 * Over HTTP, as the clinic's administrator would: billing auto-submission on, an API client for the front desk and
 * one per provider (its user), their tokens, the webhook subscription and a push device per provider.
 */
async function connect(base, clinic, webhookUrl, pushUrl) {
  const admin = await signAccessToken(SECRET, { organisationId: clinic.id, userId: 1, scope: "admin read write" });
  await request(base, null, "POST", "/apis/v1/organisation/settings", admin, { auto_submit_billing: true });
  const client = (name, scopes, userId) =>
    request(
      base,
      null,
      "POST",
      "/v2/api-clients",
      admin,
      { name, scopes, clinic_ids: [String(clinic.clinicId)], user_id: String(userId) },
      201,
    );
  const desk = await client(
    "Front desk",
    ["patients:read", "appointments:read", "appointments:write", "notifications:write"],
    4501,
  );
  clinic.deskToken = await oauthToken(base, desk);
  for (const p of clinic.providers) {
    p.token = await oauthToken(base, await client(`Clinician ${p.userId}`, ["notes:read", "notes:write"], p.userId));
    const ecdh = createECDH("prime256v1");
    ecdh.generateKeys();
    const id = `${clinic.id}-${p.userId}-${randomBytes(4).toString("hex")}`;
    const keys = { p256dh: ecdh.getPublicKey("base64url"), auth: randomBytes(16).toString("base64url") };
    browsers.set(id, { ecdh, keys });
    await request(
      base,
      null,
      "POST",
      "/apis/v1/notifications/devices",
      clinic.deskToken,
      { user_id: String(p.userId), user_type: "PROVIDER", endpoint: `${pushUrl}/push/${id}`, keys },
      201,
    );
  }
  await request(
    base,
    null,
    "POST",
    "/apis/v1/webhooks/subscriptions",
    admin,
    {
      name: "EMR sync",
      event_types: ["appointment.created", "appointment.updated", "soap_note.created", "soap_note.completed"],
      notification_url: `${webhookUrl}/clinic/${clinic.id}`,
    },
    201,
  );
}

// --- the visit -------------------------------------------------------------------------------------------------------
const pdf = { busy: false, times: [] };

/** Time from the completion's answer to summary_status READY, one note at a time (its reads are not in the mix). */
async function trackSummary(base, token, contextId, completedAt) {
  pdf.busy = true;
  try {
    for (;;) {
      const note = await request(base, null, "GET", `/apis/v1/soap-context/${contextId}`, token);
      if (note.data.summary_status === "READY") {
        pdf.times.push(performance.now() - completedAt);
        return;
      }
      if (note.data.summary_status === "FAILED") throw new BenchError(`summary failed: ${note.data.summary_failure}`);
      // 50 ms: fine enough for times near a second, and about 20 extra reads a second.
      await new Promise((r) => setTimeout(r, 50));
    }
  } finally {
    pdf.busy = false;
  }
}

async function session(base, clinic, provider, index, stop, failures) {
  const interval = RATE > 0 ? (1000 * CLINICS * SESSIONS) / RATE : 0;
  const pace = pacer(interval, (interval * index) / (CLINICS * SESSIONS));
  // The visit's requests, each at its due time.
  const call = async (...args) => {
    await pace();
    return request(...args);
  };
  let day = clinic.firstDay;
  let n = 0;
  const desk = clinic.deskToken;
  const doc = provider.token;
  const pending = [];
  while (!stop.now) {
    n++;
    const term = clinic.names[(n * 7 + provider.userId) % clinic.names.length];
    const found = await call(base, "search patients", "GET", `/v2/patients?search=${encodeURIComponent(term)}`, desk);
    if (found.data.length === 0) throw new BenchError(`search '${term}' found no one`);
    const patientId = found.data[n % found.data.length].id;
    let slot;
    for (;;) {
      const slots = await call(
        base,
        "slot lookup",
        "GET",
        `/v2/slots?provider_id=${provider.id}&clinic_id=${clinic.clinicId}&appointment_type_id=${clinic.typeId}&start_date=${day.toISODate()}&days=1`,
        desk,
      );
      slot = slots.data[0].slots[0];
      if (slot) break;
      day = day.plus({ days: 1 });
    }
    const booked = await call(
      base,
      "book",
      "POST",
      "/v2/appointments",
      desk,
      {
        patient_id: patientId,
        provider_id: String(provider.id),
        clinic_id: String(clinic.clinicId),
        appointment_type_id: String(clinic.typeId),
        slot_start: slot,
        payment_mode: "SELF_PAY",
      },
      201,
    );
    const apptKey = `${clinic.id}:${booked.id}`;
    webhooks.expected++;
    webhooks.answered.set(`appointment.created:${apptKey}`, performance.now());
    await call(base, "check in", "POST", `/v2/appointments/${booked.id}/check-in`, desk);
    webhooks.expected++;
    webhooks.answered.set(`appointment.updated:${apptKey}`, performance.now());
    const link = `type=appointment&appointment_id=${booked.id}&clinic=${clinic.id}`;
    await call(
      base,
      "push to provider",
      "POST",
      "/apis/v1/notifications/deliver",
      desk,
      {
        recipient: { user_id: String(provider.userId), user_type: "PROVIDER" },
        notification: { title: "Your patient has checked in", body: "Room 2", link },
      },
      202,
    );
    pushes.expected++;
    pushes.answered.set(link, performance.now());

    const note = (
      await call(base, "create note", "POST", "/apis/hep/v2/soap-context", doc, {
        patient_id: Number(patientId),
        type: "FOLLOWUP_SOAP",
        appointment_id: Number(booked.id),
      })
    ).data;
    const noteKey = `${clinic.id}:${note.context_id}`;
    webhooks.expected++;
    webhooks.answered.set(`soap_note.created:${noteKey}`, performance.now());
    const sections = [
      ["subjective_submission_id", { "response.Subjective.history.chief_complaint": "Low back pain after lifting" }],
      ["objective_submission_id", { "response.Objective.rom.lumbar_flexion": "40 degrees" }],
      [
        "assessment_submission_id",
        {
          "response.Assessment.diagnosis.medical_diagnosis": [
            {
              uuid: "dx-1",
              id: 31,
              code: "M54.50",
              description: "Low back pain, unspecified",
              revision: "ICD10",
              billing_type: "BILLABLE",
              is_primary: true,
            },
          ],
        },
      ],
    ];
    for (const [field, partialResponse] of sections) {
      const submissionId = note[field];
      const form = await call(base, "read form", "GET", `/apis/v1/form-data/${submissionId}`, doc);
      await call(base, "save form", "POST", "/apis/v1/form-data/partial", doc, {
        submissionId,
        soapContextId: note.context_id,
        version: form.data.version + 1,
        partialResponse,
      });
    }
    await call(base, "sign", "POST", `/apis/v1/soap-context/${note.context_id}/sign`, doc);
    const done = await call(base, "complete", "POST", `/apis/v1/soap-context/${note.context_id}`, doc, {
      completed: true,
      status: "COMPLETED",
      completed_at: null,
    });
    const completedAt = performance.now();
    if (done.data.status !== "COMPLETED" || done.data.billing_status !== "SUBMITTED")
      throw new BenchError(`complete: status ${done.data.status}, billing ${done.data.billing_status}`);
    webhooks.expected++;
    webhooks.answered.set(`soap_note.completed:${noteKey}`, completedAt);
    if (recording && !pdf.busy)
      pending.push(trackSummary(base, doc, note.context_id, completedAt).catch((e) => failures.push(e)));
  }
  await Promise.all(pending);
}

/** utime + stime in seconds of `pid` and every process below it (the workers of `serve --workers`). */
function serverCpu(pid) {
  const tree = processTree(pid);
  return { seconds: cpuSeconds(tree), processes: tree.length };
}

/** Whether this build's `serve` takes --workers (it is being added); only then is it passed. */
function serveTakesWorkers() {
  let usage = "";
  try {
    usage = execFileSync(process.execPath, [RUNTIME_CLI, "--help"], { stdio: "pipe" }).toString();
  } catch (error) {
    usage = `${error.stdout ?? ""}${error.stderr ?? ""}`;
  }
  return usage.includes("--workers");
}

// --- one run ---------------------------------------------------------------------------------------------------------
async function run(workers, receivers, workersFlag) {
  for (const m of [webhooks, pushes]) {
    m.received = m.expected = 0;
    m.receipts.clear();
    m.answered.clear();
  }
  for (const xs of samples.values()) xs.length = 0;
  pdf.times.length = 0;
  windowRequests = 0;

  const t0 = performance.now();
  const databaseUrl = await newDatabase(`clinicday_w${workers}`);
  const clinics = await seed(databaseUrl.includes("://") ? databaseUrl : `sqlite:${databaseUrl}`);
  console.log(
    `setup: ${CLINICS} clinics x (${SESSIONS} providers, ${PATIENTS} patients) in ${f1((performance.now() - t0) / 1000)} s`,
  );
  const server = await startRuntime(
    `runtime-w${workers}`,
    databaseUrl,
    "warn",
    undefined,
    // development: the receivers are plain http on loopback, which production refuses. The worker count is explicit:
    // serve's default is one per core on PostgreSQL and MySQL.
    { OPENPRACTICE_ENV: "development", OPENPRACTICE_WORKERS: String(workers) },
    workersFlag ? ["--workers", String(workers)] : [],
  );
  const failures = [];
  const stop = { now: false };
  let sessions = [];
  try {
    for (const clinic of clinics) await connect(server.url, clinic, receivers.webhookUrl, receivers.pushUrl);
    sessions = clinics.flatMap((clinic) =>
      clinic.providers.map((p, s) =>
        session(server.url, clinic, p, (clinic.id - 1) * SESSIONS + s, stop, failures).catch((e) => {
          failures.push(e);
          stop.now = true;
        }),
      ),
    );
    const wait = (s) => new Promise((r) => setTimeout(r, s * 1000));
    await wait(WARMUP);
    if (failures.length) throw failures[0];
    const cpuBefore = serverCpu(server.child.pid);
    const started = performance.now();
    recording = true;
    await wait(DURATION);
    recording = false;
    const seconds = (performance.now() - started) / 1000;
    const cpuAfter = serverCpu(server.child.pid);
    stop.now = true;
    await Promise.all(sessions);
    if (failures.length) throw failures[0];
    // Deliveries still on their way: wait up to 30 s for the rest.
    for (let waited = 0; waited < 30_000; waited += 50) {
      if (webhooks.received >= webhooks.expected && pushes.received >= pushes.expected) break;
      await new Promise((r) => setTimeout(r, 50));
    }
    const ops = [...samples.values()].reduce((a, xs) => a + xs.length, 0);
    return {
      workers,
      processes: cpuAfter.processes,
      seconds,
      ops,
      opsPerSecond: ops / seconds,
      visitsPerSecond: samples.get("complete").length / seconds,
      byOp: Object.fromEntries(OPS.map((op) => [op, { count: samples.get(op).length, ...stats(samples.get(op)) }])),
      cpuMsPerRequest: ((cpuAfter.seconds - cpuBefore.seconds) * 1000) / windowRequests,
      cpuShare: (cpuAfter.seconds - cpuBefore.seconds) / seconds,
      webhooks: delivery(webhooks),
      pushes: delivery(pushes),
      unsigned: webhooks.unsigned,
      pushRefused: pushes.refused,
      pdf: pdf.times.length ? { count: pdf.times.length, ...stats(pdf.times) } : null,
    };
  } finally {
    stop.now = true;
    recording = false;
    await Promise.allSettled(sessions);
    await stopServer(server);
  }
}

/** Received against expected, and the lag from the committing request's answer to the receipt (0 when it came first). */
function delivery(m) {
  const lags = [];
  for (const [key, answered] of m.answered) {
    const at = m.receipts.get(key);
    if (at !== undefined) lags.push(Math.max(0, at - answered));
  }
  return { expected: m.expected, received: m.received, lag: lags.length ? stats(lags) : null };
}

function report(r) {
  console.log(
    `\n${r.workers} worker(s) (${r.processes} server process(es)): ${f1(r.opsPerSecond)} clinic-day operations/s, ${f2(r.visitsPerSecond)} visits/s over ${f1(r.seconds)} s`,
  );
  console.log("| operation | count | p50 ms | p95 ms | p99 ms |\n| --- | ---: | ---: | ---: | ---: |");
  for (const [op, s] of Object.entries(r.byOp))
    console.log(`| ${op} | ${s.count} | ${f2(s.p50)} | ${f2(s.p95)} | ${f2(s.p99)} |`);
  console.log(
    `server CPU: ${f2(r.cpuMsPerRequest)} ms per request (background work included), ${f1(r.cpuShare * 100)}% of one core`,
  );
  const lag = (x) => (x.lag ? `lag p50 ${f1(x.lag.p50)} ms, p95 ${f1(x.lag.p95)} ms, p99 ${f1(x.lag.p99)} ms` : "");
  console.log(`webhook deliveries: ${r.webhooks.received} of ${r.webhooks.expected}, ${lag(r.webhooks)}`);
  console.log(`push notifications: ${r.pushes.received} of ${r.pushes.expected}, ${lag(r.pushes)}`);
  if (r.pdf)
    console.log(
      `PDF summary, complete to READY (${r.pdf.count} notes, excluded from the p95 goal): p50 ${f1(r.pdf.p50)} ms, p95 ${f1(r.pdf.p95)} ms, p99 ${f1(r.pdf.p99)} ms`,
    );
  const worst = Math.max(...Object.values(r.byOp).map((s) => s.p95));
  console.log(
    // 2% below the offered rate is the pacing's own slack (a window cuts visits mid-way).
    `goal 200 operations/s with every operation's p95 < 25 ms: ${f1(r.opsPerSecond)}/s (offered ${RATE || "as fast as possible"}), worst p95 ${f2(worst)} ms -> ${r.opsPerSecond >= 196 && worst < 25 ? "holds" : "MISSED"}`,
  );
}

async function main() {
  const version =
    ENGINE === "sqlite"
      ? `SQLite ${new BetterSqlite3(":memory:").prepare("select sqlite_version() as v").get().v}`
      : await serverVersion(DATABASE_URL);
  console.log(`${machineLine()}, ${version}`);
  const busy = await busyShare();
  console.log(`CPU busy before the run: ${(busy * 100).toFixed(0)}%`);
  if (busy > 0.1) console.warn("warning: other work is using the CPU: figures will be low and noisy");
  console.log(
    `${CLINICS} clinics x ${SESSIONS} sessions, ${PATIENTS} patients each, ${RATE ? `${RATE} operations/s offered` : "unpaced"}, ${DURATION} s measured after ${WARMUP} s warm-up`,
  );
  const receivers = { webhookUrl: await listen(webhookReceiver), pushUrl: await listen(pushService) };
  try {
    const counts = WORKERS > 1 ? [1, WORKERS] : [1];
    const workersFlag = serveTakesWorkers();
    if (WORKERS > 1 && !workersFlag)
      throw new BenchError("BENCH_WORKERS > 1, but this build's `openpractice serve` has no --workers option");
    const results = [];
    for (const w of counts) {
      const r = await run(w, receivers, workersFlag);
      report(r);
      results.push(r);
      const missing =
        r.webhooks.received < r.webhooks.expected || r.pushes.received < r.pushes.expected || r.unsigned > 0;
      if (missing || r.pushRefused > 0)
        throw new BenchError(
          `deliveries: webhooks ${r.webhooks.received}/${r.webhooks.expected} (${r.unsigned} unsigned), pushes ${r.pushes.received}/${r.pushes.expected} (${r.pushRefused} refused)`,
        );
    }
    if (results.length === 2) {
      // At a paced rate both usually reach it: the throughput ratio means most with BENCH_RATE=0.
      const worst = (r) => Math.max(...Object.values(r.byOp).map((x) => x.p95));
      console.log(
        `\n${WORKERS} workers / 1 worker: ${f2(results[1].opsPerSecond / results[0].opsPerSecond)}x the operations per second${RATE ? ` (offered ${RATE}/s to both)` : ""}, worst p95 ${f2(worst(results[1]))} against ${f2(worst(results[0]))} ms`,
      );
    }
  } finally {
    webhookReceiver.close();
    pushService.close();
  }
}

main()
  .catch((error) => {
    console.error(error instanceof BenchError ? `clinic-day: ${error.message}` : error);
    process.exitCode = 1;
  })
  .finally(() => (ENGINE === "sqlite" ? undefined : dropServerDatabases()))
  .finally(() => process.exit());
