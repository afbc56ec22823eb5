import { spawn } from "node:child_process";
import { fileURLToPath } from "node:url";
import mysql from "mysql2/promise";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines, freshDatabase } from "../support/engines.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));

// A connection the store has checked out (a transaction between statements, or a query in flight) is
// dropped by the server. On PostgreSQL, pg-pool listens for errors only on idle clients, so the
// checked-out client emitted 'error' with no listener and Node ended the process: a database restart
// would have taken the runtime down with it. The store runs in a child process here, because an
// uncaught error there is what is under test.
const CHILD = `
  const { createPostgresStorage } = await import("@openpractice/postgres");
  const { createMysqlStorage } = await import("@openpractice/mysql");
  const open = process.env.ENGINE === "postgres" ? createPostgresStorage : createMysqlStorage;
  const storage = await open({ url: process.env.DB_URL });
  const held = storage.transaction(async (tx) => {
    await tx.patients.findById(1, 1);
    console.log("holding");
    // Between statements: the client is checked out and no query is running.
    await new Promise((resolve) => process.stdin.once("data", resolve));
    return tx.patients.findById(1, 1);
  });
  const outcome = await held.then(() => "committed", (error) => "rejected: " + error.message);
  console.log(outcome);
  // The store still serves: the pool replaced the dropped connection.
  console.log("after: " + JSON.stringify(await storage.repositories.patients.findById(1, 1) ?? null));
  await storage.close();
`;

/** Ends, from another connection, every connection to the database but its own; returns how many. */
async function dropConnections(engine: "postgres" | "mysql", url: string): Promise<number> {
  const name = new URL(url).pathname.slice(1);
  if (engine === "postgres") {
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    try {
      const { rows } = await admin.query(
        "select count(pg_terminate_backend(pid)) as n from pg_stat_activity where datname = $1 and pid <> pg_backend_pid()",
        [name],
      );
      return Number(rows[0].n);
    } finally {
      await admin.end();
    }
  }
  const admin = await mysql.createConnection(url);
  try {
    const [rows] = await admin.query(
      "select id from information_schema.processlist where db = ? and id <> connection_id()",
      [name],
    );
    for (const row of rows as Array<{ id: number }>) await admin.query(`kill connection ${Number(row.id)}`);
    return (rows as unknown[]).length;
  } finally {
    await admin.end();
  }
}

const engines = availableEngines();

// Each server engine; locally, one without its URL variable is skipped (availableEngines names the variable).
describe.each(["postgres", "mysql"] as const)("[%s] a connection dropped while checked out", (engine) => {
  let db: { url: string; drop: () => Promise<void> } | undefined;
  beforeAll(async () => {
    if (engines.includes(engine)) db = await freshDatabase(engine);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it.runIf(engines.includes(engine))(
    "rejects the transaction's next statement and the process lives on",
    { timeout: 30_000 },
    async () => {
      if (!db) throw new Error("no database");
      const child = spawn(process.execPath, ["--input-type=module", "-e", CHILD], {
        cwd: ROOT,
        env: { ...process.env, DB_URL: db.url, ENGINE: engine },
        stdio: ["pipe", "pipe", "pipe"],
      });
      let stdout = "";
      let stderr = "";
      child.stdout.on("data", (c) => (stdout += c));
      child.stderr.on("data", (c) => (stderr += c));
      const exited = new Promise<number | null>((resolve) => child.once("exit", resolve));
      for (let waited = 0; !stdout.includes("holding"); waited += 50) {
        if (waited > 20_000 || child.exitCode !== null)
          throw new Error(`child did not start holding:\n${stdout}\n${stderr}`);
        await new Promise((r) => setTimeout(r, 50));
      }
      expect(await dropConnections(engine, db.url)).toBeGreaterThan(0);
      // Give the dropped socket time to reach the child before it uses the client again.
      await new Promise((r) => setTimeout(r, 300));
      child.stdin.end("go\n");
      const code = await exited;
      expect(code, `${stdout}\n${stderr}`).toBe(0);
      expect(stdout).toMatch(/rejected: /);
      expect(stdout).toContain("after: null");
    },
  );
});
