import { spawn } from "node:child_process";
import { request } from "node:http";
import { createServer, type AddressInfo } from "node:net";
import { availableParallelism } from "node:os";
import { afterEach, describe, expect, it } from "vitest";
import { availableEngines, freshDatabase, type EngineName } from "../support/engines.js";
import { makeTempDir } from "../support/temp-dir.js";
import { CLI, cliEnv, runCli, startServe, type ServeProcess } from "./cli-process.js";

// `openpractice serve --workers N`: real processes (a cluster primary and its forks) on one loopback port.
const SECRET = "workers-test-secret-0123456789-abcdef";

let serve: ServeProcess | undefined;
let temp: ReturnType<typeof makeTempDir> | undefined;
let database: { url: string; drop: () => Promise<void> } | undefined;
afterEach(async () => {
  if (serve) {
    const pids = workerPids(serve);
    if (serve.child.exitCode === null) serve.child.kill("SIGKILL");
    // A worker outlives a SIGKILLed primary only until it notices the lost channel; never leave one behind.
    for (const pid of pids) if (alive(pid)) process.kill(pid, "SIGKILL");
  }
  serve = undefined;
  temp?.remove();
  await database?.drop();
  database = undefined;
});

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** Pids of every worker the primary started, in order. */
const workerPids = (s: ServeProcess) =>
  s
    .logs()
    .filter((l) => l.msg === "worker started")
    .map((l) => Number(l.worker_pid));

async function until<T>(what: string, probe: () => T | undefined | false, ms = 30_000): Promise<T> {
  const deadline = Date.now() + ms;
  for (;;) {
    const value = probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

/** GET on a connection of its own (so the primary hands each to the next worker); the status and request id. */
function getOnNewConnection(url: string, path: string): Promise<{ status: number; requestId: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, { agent: false, headers: { connection: "close" } }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, requestId: String(res.headers["x-request-id"]) }));
    });
    req.on("error", reject);
    req.end();
  });
}

/** The pid that logged each request: worker log lines carry `worker` and `pid`. */
async function answeringPids(s: ServeProcess, requestIds: string[]): Promise<Set<number>> {
  const lines = await until("the request log lines", () => {
    const byId = new Map(s.logs().map((l) => [String(l.request_id), l]));
    const found = requestIds.map((id) => byId.get(id));
    return found.every(Boolean) ? found : undefined;
  });
  return new Set(lines.map((l) => Number(l?.pid)));
}

async function startWorkers(engine: EngineName, extraEnv: Record<string, string> = {}) {
  temp = makeTempDir();
  database = await freshDatabase(engine);
  const s = await startServe(
    { PORT: "0", DATABASE_URL: database.url, OPENPRACTICE_JWT_SECRET: SECRET, ...extraEnv },
    temp.dir,
    { args: ["--workers", "2"] },
  );
  serve = s;
  await until("both workers listening", () => s.logs().filter((l) => l.msg === "worker listening").length >= 2);
  return s;
}

const engines = availableEngines().filter((e) => e !== "mysql");

describe.each(engines)("[%s] openpractice serve --workers 2", (engine) => {
  it("migrates once in the primary, then both workers answer on the one port; /metrics sums them", async () => {
    const s = await startWorkers(engine, { OPENPRACTICE_METRICS_PORT: "0" });
    const logs = s.logs();
    expect(logs.find((l) => l.msg === "starting workers")).toMatchObject({ role: "primary", workers: 2, engine });
    const pids = workerPids(s);
    expect(pids).toHaveLength(2);
    expect(new Set(pids).size).toBe(2);
    // Both workers report the port the primary shares, the one the URL names.
    const ports = logs.filter((l) => l.msg === "worker listening").map((l) => l.port);
    expect(ports).toEqual([Number(new URL(s.url).port), Number(new URL(s.url).port)]);

    const replies = await Promise.all(Array.from({ length: 12 }, () => getOnNewConnection(s.url, "/readyz")));
    expect(replies.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(
      await answeringPids(
        s,
        replies.map((r) => r.requestId),
      ),
    ).toEqual(new Set(pids));
    // The primary's /metrics counts the requests of both workers.
    const metricsUrl = String(logs.find((l) => l.msg === "metrics listening (summed over the workers)")?.url);
    const exposition = await (await fetch(metricsUrl)).text();
    const readyz = exposition
      .split("\n")
      .filter((l) => l.startsWith("openpractice_http_requests_total{") && l.includes('route="/readyz"'));
    expect(readyz.map((l) => Number(l.split(" ").at(-1))).reduce((a, b) => a + b, 0)).toBe(12);
    // The pid is in the log only: a public reply names no process.
    const body = await (await fetch(`${s.url}/healthz`)).text();
    for (const pid of pids) expect(body).not.toContain(String(pid));
  });

  it("restarts a worker killed with SIGKILL while the port keeps answering", async () => {
    const s = await startWorkers(engine);
    const [victim, survivor] = workerPids(s) as [number, number];
    process.kill(victim, "SIGKILL");
    const died = await until("the primary to see the death", () =>
      s.logs().find((l) => l.msg === "worker died" && l.worker_pid === victim),
    );
    expect(died).toMatchObject({ level: 50, worker: 1, signal: "SIGKILL", role: "primary" });
    // Meanwhile the other worker answers every connection.
    const during = await Promise.all(Array.from({ length: 6 }, () => getOnNewConnection(s.url, "/healthz")));
    expect(during.map((r) => r.status)).toEqual(Array(6).fill(200));

    const replacement = await until("a replacement worker", () => workerPids(s)[2]);
    await until("the replacement listening", () =>
      s.logs().find((l) => l.msg === "worker listening" && l.worker_pid === replacement),
    );
    expect(s.logs().find((l) => l.msg === "restarting worker")).toMatchObject({ worker: 1 });
    expect(alive(victim)).toBe(false);
    const after = await Promise.all(Array.from({ length: 12 }, () => getOnNewConnection(s.url, "/readyz")));
    expect(after.map((r) => r.status)).toEqual(Array(12).fill(200));
    expect(
      await answeringPids(
        s,
        after.map((r) => r.requestId),
      ),
    ).toEqual(new Set([survivor, replacement]));
  });

  it("on SIGTERM to the primary stops every worker gracefully and exits 0", async () => {
    const s = await startWorkers(engine);
    const pids = workerPids(s);
    s.child.kill("SIGTERM");
    expect(await s.exited).toBe(0);
    const logs = s.logs();
    // Each worker ran the single-process shutdown: stop accepting, finish requests and background work, close the store.
    for (const pid of pids) {
      expect(logs.filter((l) => l.pid === pid).map((l) => l.msg)).toEqual(
        expect.arrayContaining(["signal received", "shutdown complete"]),
      );
      expect(logs.find((l) => l.msg === "worker stopped" && l.worker_pid === pid)).toMatchObject({ code: 0 });
    }
    expect(logs.find((l) => l.msg === "shutdown complete" && l.role === "primary")).toMatchObject({ code: 0 });
    expect(logs.some((l) => l.msg === "worker died")).toBe(false);
    await until("the workers gone", () => pids.every((pid) => !alive(pid)), 5_000);
  });
});

describe("openpractice serve --workers: defaults, bad values and a worker that cannot start", () => {
  it("refuses a --workers that is not a whole number from 1 to 256 (exit 64) and a bad OPENPRACTICE_WORKERS (exit 78)", () => {
    temp = makeTempDir();
    for (const bad of ["0", "-2", "1.5", "two", "", "257"]) {
      const r = runCli(["serve", `--workers=${bad}`], { PORT: "0" }, temp.dir);
      expect(r.status).toBe(64);
      expect(r.stderr).toContain(`openpractice: --workers must be a whole number from 1 to 256 (got '${bad}')`);
    }
    const env = runCli(["serve"], { PORT: "0", OPENPRACTICE_WORKERS: "many" }, temp.dir);
    expect(env.status).toBe(78);
    expect(env.stderr).toMatch(/^openpractice: configuration error: OPENPRACTICE_WORKERS: .*\(got 'many'\)\n$/);
  });

  it("runs one process on SQLite unless asked: no primary, no fork", async () => {
    temp = makeTempDir();
    serve = await startServe({ PORT: "0", OPENPRACTICE_WORKERS: "" }, temp.dir);
    const logs = serve.logs();
    expect(logs.some((l) => l.role === "primary" || l.msg === "worker started")).toBe(false);
    expect(logs.find((l) => l.msg === "openpractice listening")).toMatchObject({ engine: "sqlite" });
    expect(logs.find((l) => l.msg === "openpractice listening")?.pid).toBeUndefined();
  });

  it.runIf(availableEngines().includes("postgres") && availableParallelism() > 1)(
    "[postgres] forks one worker per core by default",
    async () => {
      temp = makeTempDir();
      database = await freshDatabase("postgres");
      const s = await startServe({ PORT: "0", DATABASE_URL: database.url, OPENPRACTICE_WORKERS: "" }, temp.dir);
      serve = s;
      expect(s.logs().find((l) => l.msg === "starting workers")).toMatchObject({ workers: availableParallelism() });
    },
  );

  it("gives up with exit 1 when a worker keeps dying at start (the port is taken), after backing off", async () => {
    temp = makeTempDir();
    const squatter = createServer();
    await new Promise<void>((resolve) => squatter.listen(0, "127.0.0.1", resolve));
    try {
      const port = (squatter.address() as AddressInfo).port;
      const started = Date.now();
      const r = await new Promise<{ code: number | null; out: string }>((resolve) => {
        const child = spawn(process.execPath, [CLI, "serve", "--workers", "2"], {
          env: cliEnv({ PORT: String(port) }),
          cwd: temp?.dir,
          stdio: ["ignore", "pipe", "pipe"],
        });
        let out = "";
        child.stdout.on("data", (d: Buffer) => (out += d));
        child.on("exit", (code) => resolve({ code, out }));
      });
      expect(r.code).toBe(1);
      const logs = r.out
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>);
      const fatal = logs.find((l) => l.level === 60);
      expect(fatal?.msg).toMatch(/^worker [12] died within 10 s of starting 5 times in a row: giving up$/);
      expect(logs.filter((l) => l.msg === "worker died" && l.worker === fatal?.worker)).toHaveLength(5);
      // The slot backed off 0.5, 1, 2 and 4 s before its 5th failure ended everything.
      const delays = logs.filter((l) => l.msg === "restarting worker" && l.worker === fatal?.worker);
      expect(delays.map((l) => l.delay_ms)).toEqual([500, 1000, 2000, 4000]);
      expect(logs.find((l) => l.msg === "shutdown complete")).toMatchObject({ role: "primary", code: 1 });
      expect(Date.now() - started).toBeGreaterThan(7_500);
    } finally {
      squatter.close();
    }
  }, 60_000);
});
