import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { runCli, startServe, type ServeProcess } from "../cli/cli-process.js";
import { makeTempDir } from "../support/temp-dir.js";

// A long-lived `openpractice serve` on SQLite under a mixed load of about 20,000 requests, with a
// full garbage collection forced between bursts, then a graceful stop. Finalizers of native
// handles run during GC: better-sqlite3 12 aborted the process there on Node 24
// (`Assertion failed: (env) != nullptr` in Statement::~Statement). Runs on the Node running the tests.
const BURSTS = 20;
const PER_BURST = 1000;
const CONCURRENCY = 16;
const GC_PRELOAD = fileURLToPath(new URL("../support/gc-on-signal.mjs", import.meta.url));

interface Seeded {
  token: string;
  clinic_ids: number[];
  patient_ids: number[];
  appointment_category_ids: number[];
}

describe("[sqlite] soak: one serve process, 20,000 mixed requests, forced GC between bursts", () => {
  const temp = makeTempDir();
  let serve: ServeProcess | undefined;
  afterAll(() => {
    if (serve?.child.exitCode === null) serve.child.kill("SIGKILL");
    temp.remove();
  });

  it("answers every request below 500 and exits 0 on SIGTERM", async () => {
    const env = {
      PORT: "0",
      DATABASE_URL: `sqlite:${temp.dir}/soak.db`,
      OPENPRACTICE_DATA_DIR: `${temp.dir}/data`,
      OPENPRACTICE_JWT_SECRET: "soak-test-secret-0123456789-abcdefghijkl",
      OPENPRACTICE_ENV: "development",
      OPENPRACTICE_PLAN_LIMITS: JSON.stringify({ professional: 1_000_000 }), // the demo organisation's plan: no 429s
    };
    const seed = runCli(["seed", "--patients", "200"], env, temp.dir);
    expect(seed.status, seed.stderr).toBe(0);
    const seeded = JSON.parse(seed.stdout.trim().split("\n").pop()!) as Seeded;

    serve = await startServe(env, temp.dir, { nodeOptions: ["--expose-gc", "--import", GC_PRELOAD] });
    const child = serve.child;
    const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      child.on("exit", (code, signal) => resolve({ code, signal })),
    );
    const memory: Array<{ rss: number; heapUsed: number }> = [];
    let stderr = "";
    child.stderr!.on("data", (d) => {
      stderr += d;
      for (const match of String(d).matchAll(/gc-done (\{.*\})/g)) memory.push(JSON.parse(match[1]!));
    });
    const forceGc = async () => {
      const before = memory.length;
      child.kill("SIGUSR2");
      const deadline = Date.now() + 10_000;
      while (memory.length === before) {
        if (Date.now() > deadline || child.exitCode !== null) throw new Error(`no gc report: ${stderr}`);
        await new Promise((r) => setTimeout(r, 10));
      }
    };

    const headers = { authorization: `Bearer ${seeded.token}`, "content-type": "application/json" };
    const patientIds = [...seeded.patient_ids];
    const statuses = new Map<number, number>();
    const names = ["ada", "alan", "grace", "okafor", "reyes", "marsh", "li", "kowal"];
    let slot = 0;
    // One request of the mix: 30 % v1 patient creates, 30 % v2 searches, 20 % v1 reads,
    // 10 % v2 patches, 10 % v1 bookings (each in its own hour, so none conflicts).
    const request = async (n: number): Promise<number> => {
      const kind = n % 10;
      const pick = patientIds[(n * 7919) % patientIds.length]!;
      let res: Response;
      if (kind < 3) {
        res = await fetch(`${serve!.url}/apis/v1/patient`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            first_name: `Soak${n}`,
            last_name: names[n % names.length],
            date_of_birth: "1980-02-03",
            sex: "FEMALE",
            email_address: `soak${n}@example.org`,
            clinic_id: seeded.clinic_ids[0],
          }),
        });
        const body = (await res.json()) as { data?: { patient_id?: number } };
        if (body.data?.patient_id) patientIds.push(body.data.patient_id);
        return res.status;
      }
      if (kind < 6)
        res = await fetch(`${serve!.url}/v2/patients?search=${names[n % names.length]}&per_page=10`, { headers });
      else if (kind < 8) res = await fetch(`${serve!.url}/apis/v1/patient/${pick}`, { headers });
      else if (kind === 8)
        res = await fetch(`${serve!.url}/v2/patients/${pick}`, {
          method: "PATCH",
          headers,
          body: JSON.stringify({ address: { city: `City ${n}` } }),
        });
      else {
        const startsAt = Math.floor(Date.UTC(2031, 0, 1) / 1000) + slot++ * 3600;
        res = await fetch(`${serve!.url}/apis/v1/appointment`, {
          method: "POST",
          headers,
          body: JSON.stringify({
            doctor_id: 101,
            patient_id: pick,
            clinic_id: seeded.clinic_ids[0],
            appointment_category: [seeded.appointment_category_ids[0]],
            timestamp: startsAt,
            end_timestamp: startsAt + 1800,
            payment_mode: "SELF_PAY",
          }),
        });
      }
      await res.arrayBuffer();
      return res.status;
    };

    const started = Date.now();
    let sent = 0;
    for (let burst = 0; burst < BURSTS; burst++) {
      let next = 0;
      await Promise.all(
        Array.from({ length: CONCURRENCY }, async () => {
          while (next < PER_BURST) {
            const status = await request(sent + next++);
            statuses.set(status, (statuses.get(status) ?? 0) + 1);
          }
        }),
      );
      sent += PER_BURST;
      await forceGc();
    }
    const seconds = (Date.now() - started) / 1000;

    child.kill("SIGTERM");
    const exit = await ended;
    const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
    const summary = {
      node: process.versions.node,
      requests: sent,
      seconds: Number(seconds.toFixed(1)),
      per_second: Math.round(sent / seconds),
      statuses: Object.fromEntries([...statuses].sort((a, b) => a[0] - b[0])),
      rss_mb_after_gc: {
        first: mb(memory[0]!.rss),
        last: mb(memory.at(-1)!.rss),
        max: mb(Math.max(...memory.map((m) => m.rss))),
      },
      heap_used_mb_after_gc: { first: mb(memory[0]!.heapUsed), last: mb(memory.at(-1)!.heapUsed) },
      exit,
    };
    process.stdout.write(`soak: ${JSON.stringify(summary)}\n`);

    expect(exit).toEqual({ code: 0, signal: null });
    expect(stderr).not.toMatch(/Assertion failed|Segmentation|FATAL/);
    expect(memory).toHaveLength(BURSTS);
    expect([...statuses.keys()].filter((status) => status >= 500)).toEqual([]);
    // Creates, reads, searches and patches all succeed; bookings may be refused (409) but never fail.
    expect(statuses.get(200) ?? 0).toBeGreaterThanOrEqual(sent * 0.9);
  }, 300_000);
});
