import { createServer } from "node:net";
import { organisationsNamed, type Database } from "@openpractice/kysely";
import { sqliteEngine } from "@openpractice/sqlite";
import { ConfigError, loadConfig, signAccessToken, startRuntime, type RuntimeHandle } from "@openpractice/runtime";
import { DummyDriver, Kysely, PostgresAdapter, PostgresIntrospector, PostgresQueryCompiler } from "kysely";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createPractice, patientFromDraft, readsFor, toPatientRecord, type Principal } from "@openpractice/core";
import { createPostgresStorage } from "@openpractice/postgres";
import { availableEngines, freshDatabase } from "../support/engines.js";
import { testPracticeKeys } from "../support/practice-keys.js";
import { makeTempDir } from "../support/temp-dir.js";

/**
 * DATABASE_READ_URL against a real PostgreSQL hot standby (.ci/with-databases.sh starts one and sets
 * OPENPRACTICE_TEST_POSTGRES_REPLICA_URL). Which server answered a list is shown by what it contains: with the
 * standby's replay paused, a patient another process wrote is on the primary only.
 */
const REPLICA_BASE = process.env.OPENPRACTICE_TEST_POSTGRES_REPLICA_URL;
const PRIMARY_BASE = process.env.OPENPRACTICE_TEST_POSTGRES_URL;
const WINDOW_MS = 1_500;
const SECRET = "test-secret-0123456789-abcdefghijklmnopqrstuvwxyz";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A loopback port nothing listens on (a replica that is down). */
function closedPort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function withPath(base: string, database: string, port?: number): string {
  const url = new URL(base);
  url.pathname = `/${database}`;
  if (port !== undefined) url.port = String(port);
  return url.toString();
}

/** The runtime over `databaseUrl` with `env`, remembered in `runtimes` to be stopped. */
async function startOn(
  databaseUrl: string,
  dataDir: string,
  runtimes: RuntimeHandle[],
  env: Record<string, string>,
): Promise<RuntimeHandle> {
  const runtime = await startRuntime({
    config: loadConfig({
      PORT: "0",
      HOST: "127.0.0.1",
      DATABASE_URL: databaseUrl,
      OPENPRACTICE_DATA_DIR: dataDir,
      OPENPRACTICE_JWT_SECRET: SECRET,
      LOG_LEVEL: "silent",
      OPENPRACTICE_ENV: "development",
      ...env,
    }),
  });
  runtimes.push(runtime);
  return runtime;
}

async function call(runtime: RuntimeHandle, method: string, path: string, body?: unknown) {
  const token = await signAccessToken(SECRET, { organisationId: 1, userId: 101, scope: "read write" });
  const res = await fetch(`${runtime.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
    body: body === undefined ? null : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, any> };
}

async function register(runtime: RuntimeHandle, firstName: string) {
  const created = await call(runtime, "POST", "/v2/patients", {
    first_name: firstName,
    last_name: "Quellwater",
    date_of_birth: "1980-02-03",
  });
  expect(created.status).toBe(201);
}

/** First names of the organisation's Quellwater patients, as `runtime` lists them. */
async function search(runtime: RuntimeHandle) {
  const found = await call(runtime, "GET", "/v2/patients?search=quellwater&per_page=50");
  expect(found.status).toBe(200);
  return (found.body.data as Array<{ first_name: string }>).map((p) => p.first_name).sort();
}

describe("read replica settings", () => {
  const env = (vars: Record<string, string>) => loadConfig({ OPENPRACTICE_JWT_SECRET: SECRET, ...vars });

  it("SQLite refuses DATABASE_READ_URL, naming the variable", () => {
    expect(() => env({ DATABASE_URL: "sqlite:/tmp/x.db", DATABASE_READ_URL: "postgres://r/db" })).toThrow(ConfigError);
    expect(() => env({ DATABASE_URL: "sqlite:/tmp/x.db", DATABASE_READ_URL: "postgres://r/db" })).toThrow(
      /^DATABASE_READ_URL: read replicas need a PostgreSQL or MySQL DATABASE_URL/,
    );
    // Left unset, the default SQLite store starts as before.
    expect(env({}).databaseReadUrls).toEqual([]);
  });

  it("takes comma-separated replicas of the primary's engine, hides passwords in errors, and a window", () => {
    const config = env({
      DATABASE_URL: "postgres://app@db1/op",
      DATABASE_READ_URL: " postgres://app@db2/op, postgresql://app@db3/op ,",
      OPENPRACTICE_READ_YOUR_WRITES_MS: "2500",
    });
    expect(config.databaseReadUrls).toEqual(["postgres://app@db2/op", "postgresql://app@db3/op"]);
    expect(config.readYourWritesMs).toBe(2500);
    expect(env({ DATABASE_URL: "postgres://app@db1/op" }).readYourWritesMs).toBe(5000);
    let message = "";
    try {
      env({ DATABASE_URL: "postgres://app@db1/op", DATABASE_READ_URL: "mysql://app:hunter2@db2/op" });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toMatch(/^DATABASE_READ_URL: every URL must name a replica of the DATABASE_URL engine/);
    expect(message).not.toContain("hunter2");
    expect(() => env({ DATABASE_URL: "postgres://app@db1/op", OPENPRACTICE_READ_YOUR_WRITES_MS: "-1" })).toThrow(
      /^OPENPRACTICE_READ_YOUR_WRITES_MS/,
    );
  });

  it("the SQLite engine refuses replicas when opened directly", async () => {
    const temp = makeTempDir();
    try {
      await expect(sqliteEngine.open(`sqlite:${temp.dir}/x.db`, { readUrls: ["sqlite:/tmp/y.db"] })).rejects.toThrow(
        /SQLite has no read replicas/,
      );
    } finally {
      temp.remove();
    }
  });
});

describe("which writes start an organisation's read-your-writes window", () => {
  // Compiles only: the nodes are what the primary's plugin sees.
  const db = new Kysely<Database>({
    dialect: {
      createAdapter: () => new PostgresAdapter(),
      createDriver: () => new DummyDriver(),
      createIntrospector: (k) => new PostgresIntrospector(k),
      createQueryCompiler: () => new PostgresQueryCompiler(),
    },
  });

  it("finds the organisation of inserted rows, of `organisation_id =` and of `organisation_id in`", () => {
    const insert = db
      .insertInto("patients")
      .values([
        { organisation_id: 7, name: "a" },
        { organisation_id: 9, name: "b" },
      ] as never)
      .toOperationNode();
    expect(organisationsNamed(insert).sort()).toEqual([7, 9]);
    const update = db
      .updateTable("patients")
      .set({ first_name: "X" } as never)
      .where("organisation_id", "=", 12)
      .where("id", "=", 3)
      .toOperationNode();
    expect(organisationsNamed(update)).toEqual([12]);
    const del = db.deleteFrom("patients").where("organisation_id", "in", [4, 5]).toOperationNode();
    expect(organisationsNamed(del).sort()).toEqual([4, 5]);
    // An id that is not the organisation's marks nothing.
    expect(organisationsNamed(db.deleteFrom("patients").where("id", "=", 3).toOperationNode())).toEqual([]);
  });
});

describe.skipIf(!availableEngines().includes("postgres"))("[postgres] the read-your-writes window", () => {
  // A second pool on the same database stands in for the replica: what is checked is which pool the routing
  // picks, not what the replica holds (the hot-standby tests below do that).
  let db: { url: string; drop: () => Promise<void> };
  let primary: pg.Pool;
  let replica: pg.Pool;
  beforeAll(async () => {
    db = await freshDatabase("postgres");
    primary = new pg.Pool({ connectionString: db.url, max: 2 });
    replica = new pg.Pool({ connectionString: db.url, max: 2 });
  });
  afterAll(async () => {
    await primary?.end();
    await replica?.end();
    await db?.drop();
  });

  it("counts from the transaction's commit, however long the transaction ran after its write", async () => {
    const window = 600;
    const storage = await createPostgresStorage({ pool: primary, readPools: [replica], readYourWritesMs: window });
    const practice = createPractice({ storage, keys: testPracticeKeys() });
    const principal: Principal = {
      organisationId: 5,
      userId: 1,
      name: null,
      scopes: ["write"],
      clinicIds: [],
      roles: [],
    };
    const register = (firstName: string) =>
      practice.patients.register(principal, { firstName, lastName: "Window", dateOfBirth: "1980-01-01" });
    await register("First"); // the organisation ensured and ids reserved: the next insert is answered ahead
    await sleep(window + 100);
    expect(readsFor(storage, 5)).not.toBe(storage.repositories);
    // The insert is answered (and marked) at once; the transaction then runs past the window before its COMMIT.
    await storage.transaction(async (tx) => {
      const draft = { firstName: "Slow", lastName: "Window", dateOfBirth: "1980-01-01" };
      const inserted = await tx.patients.insertIfAbsent(toPatientRecord(patientFromDraft(draft, 5, new Date())));
      expect(inserted.created).toBe(true);
      await sleep(window + 100);
    });
    expect(readsFor(storage, 5)).toBe(storage.repositories);
    expect(readsFor(storage, 6)).not.toBe(storage.repositories);
    await sleep(window + 100);
    expect(readsFor(storage, 5)).not.toBe(storage.repositories);
    await storage.close();
  });
});

if (!REPLICA_BASE || !PRIMARY_BASE) {
  if (process.env.CI)
    throw new Error("OPENPRACTICE_TEST_POSTGRES_REPLICA_URL is not set: run through .ci/with-databases.sh");
  console.warn(
    "[postgres replica] not tested: set OPENPRACTICE_TEST_POSTGRES_REPLICA_URL (or run: bash .ci/with-databases.sh npx vitest run)",
  );
} else {
  const replicaBase = REPLICA_BASE;
  const primaryBase = PRIMARY_BASE;
  describe("[postgres] reads from a hot standby (DATABASE_READ_URL)", () => {
    let db: { url: string; drop: () => Promise<void> };
    let database: string;
    let standby: pg.Client;
    let primary: pg.Client;
    const runtimes: RuntimeHandle[] = [];
    const temp = makeTempDir();

    const start = (env: Record<string, string>) => startOn(db.url, temp.dir, runtimes, env);

    /** Waits until the standby has replayed everything the primary has written so far. */
    async function caughtUp() {
      const { rows } = await primary.query("select pg_current_wal_lsn()::text as lsn");
      for (let i = 0; i < 200; i++) {
        const replayed = await standby.query("select pg_wal_lsn_diff(pg_last_wal_replay_lsn(), $1) >= 0 as done", [
          rows[0].lsn,
        ]);
        if (replayed.rows[0].done) return;
        await sleep(25);
      }
      throw new Error("the standby did not catch up within 5 s");
    }

    async function pauseReplay() {
      await standby.query("select pg_wal_replay_pause()");
      for (let i = 0; i < 200; i++) {
        const { rows } = await standby.query("select pg_get_wal_replay_pause_state() as state");
        if (rows[0].state === "paused") return;
        await sleep(25);
      }
      throw new Error("the standby's replay did not pause");
    }

    beforeAll(async () => {
      db = await freshDatabase("postgres");
      database = new URL(db.url).pathname.slice(1);
      primary = new pg.Client({ connectionString: primaryBase });
      await primary.connect();
      standby = new pg.Client({ connectionString: replicaBase });
      await standby.connect();
      const { rows } = await standby.query("select pg_is_in_recovery() as standby");
      expect(rows[0].standby).toBe(true);
    });

    afterAll(async () => {
      // Whatever failed, the standby replays again, or every later test would read a frozen copy.
      await standby?.query("select pg_wal_replay_resume()").catch(() => undefined);
      for (const runtime of runtimes) await runtime.stop();
      await standby?.end();
      await primary?.end();
      await db?.drop();
      temp.remove();
    });

    it("a search outside the window reads the standby; after the organisation's write, the primary", async () => {
      // This process reads the standby; `other` is a second process on the primary alone (no DATABASE_READ_URL).
      const replicated = await start({
        DATABASE_READ_URL: withPath(replicaBase, database),
        OPENPRACTICE_READ_YOUR_WRITES_MS: String(WINDOW_MS),
      });
      const other = await start({});
      await register(replicated, "Ada");
      await caughtUp();
      await sleep(WINDOW_MS);
      expect(await search(replicated)).toEqual(["Ada"]);

      await pauseReplay();
      try {
        // Another process's write: this process's window does not see it, and the paused standby does not have it.
        await register(other, "Bea");
        expect(await search(other)).toEqual(["Ada", "Bea"]);
        expect(await search(replicated)).toEqual(["Ada"]);

        // This process writes for the organisation: its next reads are the primary's, Bea included.
        await register(replicated, "Cy");
        expect(await search(replicated)).toEqual(["Ada", "Bea", "Cy"]);

        // Once the window has passed, the standby answers again, with its older state.
        await sleep(WINDOW_MS + 100);
        expect(await search(replicated)).toEqual(["Ada"]);
        // The replica's own pool is at work on the standby.
        const sessions = await standby.query(
          "select count(*)::int as n from pg_stat_activity where application_name = 'openpractice-replica' and datname = $1",
          [database],
        );
        expect(sessions.rows[0].n).toBeGreaterThan(0);
      } finally {
        await standby.query("select pg_wal_replay_resume()");
      }
      await caughtUp();
      expect(await search(replicated)).toEqual(["Ada", "Bea", "Cy"]);

      const ready = await fetch(`${replicated.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: "ready",
        replicas: [{ name: `${new URL(replicaBase).host}/${database}`, status: "up" }],
      });
    });

    // Reads the three patients the test above registered.
    it("a replica that is down: reads answer from the primary and /readyz says so while ready", async () => {
      const down = withPath(replicaBase, database, await closedPort());
      // Round-robin over a dead replica and the live one: every read answers, whichever it was given.
      const runtime = await start({ DATABASE_READ_URL: `${down},${withPath(replicaBase, database)}` });
      await caughtUp();
      for (let i = 0; i < 4; i++) expect(await search(runtime)).toEqual(["Ada", "Bea", "Cy"]);

      const ready = await fetch(`${runtime.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: "ready",
        replicas: [
          { name: `${new URL(down).host}/${database}`, status: "down" },
          { name: `${new URL(replicaBase).host}/${database}`, status: "up" },
        ],
      });

      // Only a dead replica: the primary serves every read.
      const alone = await start({ DATABASE_READ_URL: down });
      expect(await search(alone)).toEqual(["Ada", "Bea", "Cy"]);
      const aloneReady = await fetch(`${alone.url}/readyz`);
      expect(aloneReady.status).toBe(200);
      expect(((await aloneReady.json()) as { replicas: unknown }).replicas).toEqual([
        { name: `${new URL(down).host}/${database}`, status: "down" },
      ]);
    });
  });
}

if (availableEngines().includes("mysql")) {
  // No MariaDB replica runs here: the primary stands in as its own replica, which checks the MySQL adapter's replica
  // pool, round-robin and fallback on the real driver (binlog replication itself is not tested).
  describe("[mysql] DATABASE_READ_URL on MariaDB", () => {
    let db: { url: string; drop: () => Promise<void> };
    const runtimes: RuntimeHandle[] = [];
    const temp = makeTempDir();
    beforeAll(async () => {
      db = await freshDatabase("mysql");
    });
    afterAll(async () => {
      for (const runtime of runtimes) await runtime.stop();
      await db?.drop();
      temp.remove();
    });

    it("lists read the replica pool; a replica that is down falls back to the primary and /readyz says so", async () => {
      const database = new URL(db.url).pathname.slice(1);
      const down = withPath(db.url, database, await closedPort());
      const runtime = await startOn(db.url, temp.dir, runtimes, {
        DATABASE_READ_URL: `${db.url},${down}`,
        OPENPRACTICE_READ_YOUR_WRITES_MS: "0",
      });
      await register(runtime, "Ada");
      for (let i = 0; i < 4; i++) expect(await search(runtime)).toEqual(["Ada"]);
      const ready = await fetch(`${runtime.url}/readyz`);
      expect(ready.status).toBe(200);
      expect(await ready.json()).toEqual({
        status: "ready",
        replicas: [
          { name: `${new URL(db.url).host}/${database}`, status: "up" },
          { name: `${new URL(down).host}/${database}`, status: "down" },
        ],
      });
    });
  });
}
