import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { afterEach, describe, expect, it } from "vitest";
import { availableEngines, freshDatabase, openEngineStorage, openRawQuery } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// A store that cannot serve for now is a 503 with Retry-After (safe to retry), not a 500. Each engine's
// classifier is checked on real driver errors; the PostgreSQL case also goes end to end over HTTP.
describe("database unavailable", () => {
  let rt: TestRuntime | undefined;
  afterEach(async () => {
    await rt?.stop();
    rt = undefined;
  });

  it("[sqlite] classifies a real SQLITE_BUSY as unavailable and a constraint error as not", async () => {
    const temp = await freshDatabase("sqlite");
    const storage = await openEngineStorage("sqlite", temp.url);
    const file = temp.url.slice("sqlite:".length);
    const holder = new BetterSqlite3(file);
    const waiter = new BetterSqlite3(file, { timeout: 0 });
    try {
      holder.exec("BEGIN IMMEDIATE");
      let busy: unknown;
      try {
        waiter.exec("BEGIN IMMEDIATE");
      } catch (error) {
        busy = error;
      }
      expect((busy as { code?: string }).code).toBe("SQLITE_BUSY");
      expect(storage.isUnavailable?.(busy)).toBe(true);
      holder.exec("ROLLBACK");
      waiter.exec("CREATE TABLE t (x INTEGER PRIMARY KEY)");
      waiter.exec("INSERT INTO t VALUES (1)");
      let duplicate: unknown;
      try {
        waiter.exec("INSERT INTO t VALUES (1)");
      } catch (error) {
        duplicate = error;
      }
      expect(storage.isUnavailable?.(duplicate)).toBe(false);
      expect(storage.isUnavailable?.(new Error("boom"))).toBe(false);
    } finally {
      holder.close();
      waiter.close();
      await storage.close();
      await temp.drop();
    }
  });

  for (const engine of availableEngines().filter((e) => e !== "sqlite")) {
    it(`[${engine}] classifies a real refused connection as unavailable`, async () => {
      const temp = await freshDatabase(engine);
      const storage = await openEngineStorage(engine, temp.url);
      try {
        const closed = new URL(temp.url);
        closed.port = "1";
        let refused: unknown;
        try {
          const probe = await openRawQuery(engine, closed.toString());
          await probe.close();
        } catch (error) {
          refused = error;
        }
        expect(refused).toBeDefined();
        expect(storage.isUnavailable?.(refused)).toBe(true);
        expect(storage.isUnavailable?.(new Error("boom"))).toBe(false);
      } finally {
        await storage.close();
        await temp.drop();
      }
    });
  }

  it.runIf(availableEngines().includes("postgres"))(
    "[postgres] a database that refuses connections answers 503, then recovers",
    { timeout: 30_000 },
    async () => {
      rt = await startTestRuntime({}, { engine: "postgres" });
      const url = new URL(rt.databaseUrl);
      const name = url.pathname.slice(1);
      url.pathname = "/postgres";
      const admin = new pg.Client({ connectionString: url.toString() });
      await admin.connect();
      try {
        await admin.query(`alter database ${name} allow_connections false`);
        await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
          [name],
        );
        const res = await rt.call("GET", "/v2/patients");
        expect(res.status).toBe(503);
        expect((await res.json()).error.code).toBe("SERVICE_UNAVAILABLE");
        expect((await rt.call("GET", "/readyz")).status).toBe(503);
      } finally {
        await admin.query(`alter database ${name} allow_connections true`);
        await admin.end();
      }
      expect((await rt.call("GET", "/v2/patients")).status).toBe(200);
    },
  );
});
