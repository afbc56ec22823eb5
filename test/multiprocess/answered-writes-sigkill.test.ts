import { signAccessToken } from "@openpractice/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { startServe, type ServeProcess } from "../cli/cli-process.js";
import { availableEngines, freshDatabase } from "../support/engines.js";
import { makeTempDir } from "../support/temp-dir.js";

const SECRET = "answered-writes-secret-0123456789-abcdefgh";
/** Concurrent writers: enough that SQLite's group commit carries several creates per commit. */
const WRITERS = 16;

// Durability of group commit (SQLite) and of the server engines' commits: `openpractice serve` answers a create
// only after its commit, so a process killed without warning in the middle of a write burst has lost none of the
// writes it answered. Writes in flight at the kill may or may not be there; the test does not count them.
describe.each(availableEngines())("[%s] no answered write is lost to SIGKILL", (engine) => {
  const temp = makeTempDir();
  const processes: ServeProcess[] = [];
  let drop: (() => Promise<void>) | undefined;
  afterAll(async () => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill("SIGKILL");
    await drop?.();
    temp.remove();
  });

  it("every 201 of a burst cut by SIGKILL is there after a restart", { timeout: 120_000 }, async () => {
    const database = engine === "sqlite" ? undefined : await freshDatabase(engine);
    drop = database?.drop;
    const env = {
      PORT: "0",
      OPENPRACTICE_JWT_SECRET: SECRET,
      OPENPRACTICE_PLAN_LIMITS: '{"free":100000000}',
      DATABASE_URL: database?.url ?? `sqlite:${temp.dir}/answered.db`,
    };
    const token = await signAccessToken(SECRET, { organisationId: 1, userId: 1, scope: "read write" });
    const headers = { authorization: `Bearer ${token}`, "content-type": "application/json" };
    const first = await startServe(env, temp.dir);
    processes.push(first);

    const answered: Array<{ id: number; lastName: string }> = [];
    let killed = false;
    const writer = async (w: number) => {
      for (let i = 0; !killed; i++) {
        const lastName = `Burst${w}x${i}`;
        try {
          const res = await fetch(`${first.url}/v2/patients`, {
            method: "POST",
            headers,
            body: JSON.stringify({ first_name: "Kill", last_name: lastName, date_of_birth: "1980-01-01" }),
          });
          if (res.status !== 201) throw new Error(`create answered ${res.status}: ${await res.text()}`);
          answered.push({ id: (await res.json()).id as number, lastName });
        } catch (error) {
          if (!killed) throw error;
        }
      }
    };
    const writers = Array.from({ length: WRITERS }, (_, w) => writer(w));
    const deadline = Date.now() + 20_000;
    while (answered.length < 300 && Date.now() < deadline) await new Promise((r) => setTimeout(r, 10));
    killed = true;
    first.child.kill("SIGKILL");
    await first.exited;
    await Promise.all(writers);
    expect(answered.length).toBeGreaterThanOrEqual(300);

    const second = await startServe(env, temp.dir);
    processes.push(second);
    const missing: number[] = [];
    for (const { id, lastName } of answered) {
      const res = await fetch(`${second.url}/v2/patients/${id}`, { headers });
      if (res.status !== 200 || (await res.json()).last_name !== lastName) missing.push(id);
    }
    expect(missing).toEqual([]);
  });
});
