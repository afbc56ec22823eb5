import { createPostgresStorage } from "@openpractice/postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startServe, type ServeProcess } from "../cli/cli-process.js";
import { availableEngines, freshDatabase, openRawQuery } from "../support/engines.js";
import { makeTempDir } from "../support/temp-dir.js";

const JOBS = 1000;
const hasPostgres = availableEngines().includes("postgres");

// Three `openpractice serve` processes share one PostgreSQL: every queued job is completed exactly once.
describe.runIf(hasPostgres)("[postgres] three runtime processes, one job queue", () => {
  let db: Awaited<ReturnType<typeof freshDatabase>>;
  const temp = makeTempDir();
  const processes: ServeProcess[] = [];

  beforeAll(async () => {
    db = await freshDatabase("postgres");
  });

  /** Queues the jobs in one transaction, so they become visible to every worker at once. */
  async function enqueueJobs() {
    const storage = await createPostgresStorage({ url: db.url });
    const runAt = new Date(Date.now() - 1000);
    await storage.transaction(async (tx) => {
      for (let i = 0; i < JOBS; i++) await tx.jobs.enqueue({ queue: "system.noop", payload: { n: i }, runAt });
    });
    await storage.close();
  }

  afterAll(async () => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill("SIGKILL");
    await db.drop();
    temp.remove();
  });

  it("completes 1,000 jobs, each once, spread over the processes", async () => {
    const env = {
      PORT: "0",
      DATABASE_URL: db.url,
      OPENPRACTICE_JWT_SECRET: "multi-process-secret-0123456789-abcdef",
      OPENPRACTICE_WORKER_POLL_MS: "20",
    };
    processes.push(...(await Promise.all([1, 2, 3].map(() => startServe(env, temp.dir)))));
    // Queued once all three listen: a process that started late under load must not find the queue empty.
    await enqueueJobs();

    const raw = await openRawQuery("postgres", db.url);
    try {
      const deadline = Date.now() + 60_000;
      while ((await raw.query("select count(*) n from jobs where status = 'done'"))[0]?.n !== JOBS) {
        if (Date.now() > deadline) throw new Error("jobs not finished within 60 s");
        await new Promise((r) => setTimeout(r, 100));
      }
      const rows = await raw.query("select id, attempts, completed_by from jobs");
      expect(rows).toHaveLength(JOBS);
      expect(rows.filter((r) => r.attempts !== 1)).toEqual([]);
      const byWorker = new Map<string, number>();
      for (const r of rows) byWorker.set(String(r.completed_by), (byWorker.get(String(r.completed_by)) ?? 0) + 1);
      expect(byWorker.size).toBe(3);
    } finally {
      await raw.close();
    }
    for (const p of processes) p.child.kill("SIGTERM");
    expect(await Promise.all(processes.map((p) => p.exited))).toEqual([0, 0, 0]);
  }, 90_000);
});
