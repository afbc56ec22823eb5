// Tasks (docs/tasks.md, issue 48): one person's open tasks, `GET /apis/v1/tasks?assignee=provider:N&status=open`
// as the service runs it in process, over 200,000 tasks of one organisation (50 assignees; a quarter of each one's
// tasks open), against the same two statements (the page and its count) run straight through the driver in this
// process: the ratio is ours over the driver's. Prints p50/p95/p99 and the database's plan of both statements.
// See docs/performance.md ("Tasks").
//
//   npm run bench:tasks                                   # SQLite
//   DATABASE_URL=postgres://… npm run bench:tasks          (or npm run bench:tasks:postgres)
//
// Env: BENCH_TASKS (200000), BENCH_ASSIGNEES (50), BENCH_SAMPLES (1000). Exits 1 when a page comes back empty or
// the count is not what was loaded.
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { createPractice } from "@openpractice/core";
import { openStorage } from "@openpractice/runtime";
import { testPracticeKeys } from "@openpractice/testing";
import { intEnv, machineLine, runBenchmark, sampleLatency, stats, temp } from "./harness.mjs";

const TASKS = intEnv("BENCH_TASKS", 200_000);
const ASSIGNEES = intEnv("BENCH_ASSIGNEES", 50);
const SAMPLES = intEnv("BENCH_SAMPLES", 1_000);
const STATUSES = ["open", "done", "done", "in_progress", "open", "done", "cancelled", "done"];
const PRIORITIES = ["urgent", "high", "normal", "low"];
const PRINCIPAL = {
  organisationId: 1,
  userId: 101,
  name: "Bench",
  scopes: ["read", "write"],
  clinicIds: [],
  roles: [],
};
const ms = (n) => `${n.toFixed(2)} ms`;

// Each assignee's n-th task takes the n-th status in turn, so every assignee has the same mix.
const statusOf = (i) => STATUSES[Math.floor(i / ASSIGNEES) % STATUSES.length];

function task(i, now) {
  const due = i % 5 === 0 ? null : new Date(now + ((i * 7919) % 90) * 86_400_000);
  const status = statusOf(i);
  return {
    organisationId: 1,
    title: `Task ${i}`,
    description: null,
    patientId: null,
    subject: null,
    clinicId: null,
    assignee: { type: "provider", id: 1000 + (i % ASSIGNEES) },
    assignmentSeq: 1,
    priority: PRIORITIES[i % 4],
    dueAt: due,
    status,
    origin: "person",
    rule: null,
    ruleKey: null,
    createdByUserId: 101,
    createdByClientId: null,
    completedAt: status === "done" ? new Date(now) : null,
    completedByUserId: status === "done" ? 101 : null,
    resolution: null,
    overdueAt: null,
    overdueNotifiedFor: null,
    version: 1,
    createdAt: new Date(now - i * 1000),
    updatedAt: new Date(now - i * 1000),
  };
}

async function load(practice) {
  const now = Date.now();
  const started = performance.now();
  for (let i = 0; i < TASKS; i += 2_000)
    await practice.storage.transaction(async (tx) => {
      for (let j = i; j < Math.min(TASKS, i + 2_000); j++) await tx.tasks.insert(task(j, now));
    });
  console.log(`loaded ${TASKS} tasks in ${((performance.now() - started) / 1000).toFixed(1)} s`);
}

const PAGE_SQL = (p) =>
  `select * from tasks where organisation_id = ${p(1)} and assignee_type = ${p(2)} and assignee_id = ${p(3)} and status in (${p(4)}) order by due_order, id limit 20`;
const COUNT_SQL = (p) =>
  `select count(*) as n from tasks where organisation_id = ${p(1)} and assignee_type = ${p(2)} and assignee_id = ${p(3)} and status in (${p(4)})`;

/** The two statements straight through the driver, and the plan of each. */
async function driverFor(databaseUrl) {
  if (databaseUrl.startsWith("sqlite")) {
    const db = new BetterSqlite3(databaseUrl.replace(/^sqlite:/, ""), { readonly: true });
    const page = db.prepare(PAGE_SQL(() => "?"));
    const count = db.prepare(COUNT_SQL(() => "?"));
    return {
      name: "better-sqlite3",
      run: async (assignee) => {
        const rows = page.all(1, "provider", assignee, "open");
        const n = count.get(1, "provider", assignee, "open").n;
        return { rows: rows.length, total: Number(n) };
      },
      plans: async () =>
        [PAGE_SQL, COUNT_SQL].map((sql) =>
          db
            .prepare(`explain query plan ${sql(() => "?")}`)
            .all(1, "provider", 1000, "open")
            .map((r) => r.detail)
            .join("\n"),
        ),
      close: async () => db.close(),
    };
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  await pool.query("analyze tasks");
  return {
    name: "pg",
    run: async (assignee) => {
      const params = [1, "provider", assignee, "open"];
      const rows = await pool.query({ name: "page", text: PAGE_SQL((n) => `$${n}`), values: params });
      const n = await pool.query({ name: "count", text: COUNT_SQL((n) => `$${n}`), values: params });
      return { rows: rows.rowCount, total: Number(n.rows[0].n) };
    },
    plans: async () => {
      const out = [];
      for (const sql of [PAGE_SQL, COUNT_SQL]) {
        const r = await pool.query(`explain (analyze, buffers, costs off) ${sql((n) => `$${n}`)}`, [
          1,
          "provider",
          1000,
          "open",
        ]);
        out.push(r.rows.map((row) => row["QUERY PLAN"]).join("\n"));
      }
      return out;
    },
    close: () => pool.end(),
  };
}

const sample = (label, fn) => sampleLatency(label, fn, { samples: SAMPLES, warmup: 50, width: 40 });

async function main() {
  console.log(machineLine());
  const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${join(temp, "tasks.db")}`;
  const storage = await openStorage(databaseUrl);
  const practice = createPractice({ storage, keys: testPracticeKeys() });
  await practice.storage.repositories.organisations.ensure({ id: 1, name: "Bench", plan: "free", now: new Date() });
  await load(practice);
  const perAssignee = Math.round(TASKS / ASSIGNEES);
  const expectedOpen = (assignee) => {
    let n = 0;
    for (let i = assignee - 1000; i < TASKS; i += ASSIGNEES) if (statusOf(i) === "open") n++;
    return n;
  };
  const driver = await driverFor(databaseUrl);
  console.log(
    `${TASKS} tasks, ${ASSIGNEES} assignees (${perAssignee} each, ${expectedOpen(1000)} open), ${SAMPLES} samples, assignees in turn`,
  );
  const assigneeOf = (i) => 1000 + (i % ASSIGNEES);
  const ours = await sample("service (practice.tasks.list)", async (i) => {
    const assignee = assigneeOf(i);
    const found = await practice.tasks.list(PRINCIPAL, {
      assignee: { type: "provider", id: assignee },
      statuses: ["open"],
    });
    if (found.tasks.length !== 20 || found.total !== expectedOpen(assignee))
      throw new Error(`assignee ${assignee}: ${found.tasks.length} rows, total ${found.total}`);
  });
  const base = await sample(`baseline (${driver.name}, same two statements)`, async (i) => {
    const assignee = assigneeOf(i);
    const r = await driver.run(assignee);
    if (r.rows !== 20 || r.total !== expectedOpen(assignee)) throw new Error(`driver: ${r.rows} rows, ${r.total}`);
  });
  console.log(
    `ratio p95 ours/driver ${(ours.p95 / base.p95).toFixed(2)}; goal p95 < 10 ms: ${ours.p95 < 10 ? "met" : "NOT met"}`,
  );
  const [pagePlan, countPlan] = await driver.plans();
  console.log(`\nplan of the page:\n${pagePlan}\n\nplan of the count:\n${countPlan}`);
  await driver.close();
  await storage.close?.();
}

runBenchmark(main);
