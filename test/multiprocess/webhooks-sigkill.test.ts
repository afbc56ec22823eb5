import { signAccessToken } from "@openpractice/runtime";
import { afterAll, describe, expect, it } from "vitest";
import { startServe, type ServeProcess } from "../cli/cli-process.js";
import { makeTempDir } from "../support/temp-dir.js";
import { WebhookReceiver } from "../support/webhook-receiver.js";

const SECRET = "sigkill-test-secret-0123456789-abcdefghij";
const EVENTS = 40;

// At-least-once across a crash: `openpractice serve` is killed with SIGKILL while deliveries are in flight,
// started again on the same database, and every event still reaches the receiver with its original event_id.
describe("webhook delivery survives SIGKILL", () => {
  const temp = makeTempDir();
  const receiver = new WebhookReceiver({ delayMs: 150 });
  const processes: ServeProcess[] = [];
  afterAll(async () => {
    for (const p of processes) if (p.child.exitCode === null) p.child.kill("SIGKILL");
    await receiver.stop();
    temp.remove();
  });

  it("delivers every event at least once, none lost, after a crash and a restart", { timeout: 90_000 }, async () => {
    await receiver.start();
    // Development: loopback receivers allowed. A short lease (the minimum, 11 s) so the killed process's jobs come back soon.
    const env = { PORT: "0", OPENPRACTICE_JWT_SECRET: SECRET, OPENPRACTICE_ENV: "development", OPENPRACTICE_WORKER_POLL_MS: "20", OPENPRACTICE_JOB_LEASE_MS: "11000" };
    const token = await signAccessToken(SECRET, { organisationId: 1, userId: 1, scope: "read write" });
    const call = (url: string, path: string, body: unknown) =>
      fetch(`${url}${path}`, { method: "POST", headers: { authorization: `Bearer ${token}`, "content-type": "application/json" }, body: JSON.stringify(body) });

    const first = await startServe(env, temp.dir);
    processes.push(first);
    const sub = await call(first.url, "/apis/v1/webhooks/subscriptions", { name: "crash", event_types: ["patient.created"], notification_url: `${receiver.url}/crash` });
    expect(sub.status).toBe(201);
    const patientIds: number[] = [];
    for (let i = 0; i < EVENTS; i++) {
      const res = await call(first.url, "/apis/v1/patient", { first_name: `Crash${i}`, last_name: "Test", date_of_birth: "1980-01-01" });
      patientIds.push((await res.json()).data.patient_id);
    }
    // Some deliveries done, others in flight (the receiver takes 150 ms each): kill without warning.
    await receiver.waitFor((r) => r.length >= 5, 20_000);
    first.child.kill("SIGKILL");
    await first.exited;
    const beforeRestart = receiver.received.length;
    expect(beforeRestart).toBeLessThan(EVENTS);

    const second = await startServe(env, temp.dir);
    processes.push(second);
    const got = await receiver.waitFor((r) => new Set(r.map((x) => x.json.data?.patient_id)).size >= EVENTS, 60_000);
    const byPatient = new Map<number, Set<string>>();
    for (const r of got) {
      const id = r.json.data.patient_id as number;
      byPatient.set(id, new Set([...(byPatient.get(id) ?? []), r.json.event_id as string]));
    }
    // Every event arrived; a repeat (an attempt cut off by the kill) carries the original event_id.
    expect([...byPatient.keys()].sort((a, b) => a - b)).toEqual([...patientIds].sort((a, b) => a - b));
    expect([...byPatient.values()].filter((ids) => ids.size !== 1)).toEqual([]);
    second.child.kill("SIGTERM");
    expect(await second.exited).toBe(0);
  });
});
