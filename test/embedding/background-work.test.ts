import { spawn, type ChildProcess } from "node:child_process";
import { createHmac, randomBytes } from "node:crypto";
import { once } from "node:events";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { createPractice } from "@openpractice/core";
import { seedDemo, type SeedSummary } from "@openpractice/runtime";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines, freshDatabase, openEngineStorage, openRawQuery } from "../support/engines.js";
import { pdftotext } from "../support/pdftotext.js";
import { FakePushService } from "../support/push-service.js";
import { WebhookReceiver } from "../support/webhook-receiver.js";

const FIXTURE = fileURLToPath(new URL("./express-emr.mjs", import.meta.url));
const JWT_SECRET = "embedding-test-secret-0123456789-abcdefghij";
const NOOP_JOBS = 200;
/** More deliveries than one process holds at once (64), each answered after 100 ms: both processes must take some. */
const PATIENTS = 150;

interface Emr {
  child: ChildProcess;
  url: string;
  stderr: string[];
}

/** Starts the EMR in its own process and waits for its URL (or its exit, for the refusals). */
async function startEmr(env: Record<string, string | undefined>): Promise<Emr> {
  const child = spawn(process.execPath, [FIXTURE], {
    env: { PATH: process.env.PATH, ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const stderr: string[] = [];
  child.stderr!.on("data", (chunk: Buffer) => stderr.push(chunk.toString()));
  const lines = createInterface({ input: child.stdout! });
  const url = await Promise.race([
    new Promise<string>((resolve) => lines.once("line", (line) => resolve(JSON.parse(line).url))),
    once(child, "exit").then(([code]) => {
      throw new Error(`EMR exited with ${code} before listening: ${stderr.join("")}`);
    }),
  ]);
  return { child, url, stderr };
}

async function stopEmr(emr: Emr): Promise<number | null> {
  if (emr.child.exitCode !== null) return emr.child.exitCode;
  emr.child.kill("SIGTERM");
  const [code] = await once(emr.child, "exit");
  return code as number | null;
}

async function until<T>(what: string, probe: () => Promise<T | undefined | false>, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 50));
  }
}

// The library without the runtime: an Express EMR embeds the handler and starts background work itself; two of its
// processes on one database deliver webhooks, render PDF summaries and send pushes, each job once.
for (const engine of availableEngines().filter((e) => e !== "mysql")) {
  describe(`[${engine}] background work in an embedding Express app`, () => {
    let db: Awaited<ReturnType<typeof freshDatabase>>;
    let seed: SeedSummary;
    let receiver: WebhookReceiver;
    let push: FakePushService;
    const vapid = webpush.generateVAPIDKeys();
    const webhookKey = randomBytes(32).toString("hex");
    const baseEnv = () => ({
      DATABASE_URL: db.url,
      EMR_JWT_SECRET: JWT_SECRET,
      EMR_WEBHOOK_KEY: webhookKey,
      EMR_VAPID_PUBLIC_KEY: vapid.publicKey,
      EMR_VAPID_PRIVATE_KEY: vapid.privateKey,
    });
    const running: Emr[] = [];
    let subscriptionId = "";
    let signatureKey = "";
    /** The receiver's own check of X-Service-Signature (t=…,v1=HMAC-SHA256 of `t.body`), written here apart from core's. */
    const signedByKey = (r: { body: string; headers: Record<string, unknown> }) => {
      const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(String(r.headers["x-service-signature"]));
      return !!match && createHmac("sha256", signatureKey).update(`${match[1]}.${r.body}`).digest("hex") === match[2];
    };

    const call = async (emr: Emr, method: string, path: string, body?: unknown) => {
      const res = await fetch(`${emr.url}${path}`, {
        method,
        headers: {
          authorization: `Bearer ${seed.token}`,
          ...(body === undefined ? {} : { "content-type": "application/json" }),
        },
        ...(body === undefined ? {} : { body: JSON.stringify(body) }),
      });
      const type = res.headers.get("content-type") ?? "";
      return {
        status: res.status,
        body: type.includes("json") ? await res.json() : Buffer.from(await res.arrayBuffer()),
      };
    };

    beforeAll(async () => {
      db = await freshDatabase(engine);
      const storage = await openEngineStorage(engine, db.url);
      try {
        seed = await seedDemo(createPractice({ storage, keys: { webhookSecretKey: webhookKey, vapid: null } }), {
          organisationId: 1,
          patients: 1,
          jwtSecret: JWT_SECRET,
        });
      } finally {
        await storage.close();
      }
      receiver = await new WebhookReceiver({ delayMs: 100 }).start();
      push = await new FakePushService().start();
    });

    afterAll(async () => {
      for (const emr of running) if (emr.child.exitCode === null) emr.child.kill("SIGKILL");
      await receiver.stop();
      await push.stop();
      await db.drop();
    });

    it("refuses to start without the webhook key, naming the option", async () => {
      await expect(startEmr({ ...baseEnv(), EMR_WEBHOOK_KEY: undefined })).rejects.toThrow(
        /exited with 1.*keys\.webhookSecretKey is required/s,
      );
    });

    it("two processes deliver webhooks, render the PDF summary and send a push; every job runs once, both do some", async () => {
      const [a, b] = await Promise.all([
        startEmr({ ...baseEnv(), EMR_WORKER_ID: "emr-a" }),
        startEmr({ ...baseEnv(), EMR_WORKER_ID: "emr-b" }),
      ]);
      running.push(a!, b!);
      const sub = await call(a!, "POST", "/apis/v1/webhooks/subscriptions", {
        name: "EMR sync",
        event_types: ["patient.created", "soap_note.completed"],
        notification_url: `${receiver.url}/hooks`,
      });
      expect(sub.status).toBe(201);
      subscriptionId = sub.body.subscription.id;
      signatureKey = sub.body.signature_key;

      // Webhooks: patients registered through both processes; each event arrives once.
      for (let i = 0; i < PATIENTS; i++) {
        const created = await call(i % 2 ? a! : b!, "POST", "/apis/v1/patient", {
          first_name: `Embed${i}`,
          last_name: "Patient",
          date_of_birth: "1980-01-01",
        });
        expect(created.body.code).toBe(2000);
      }
      await until(
        `${PATIENTS} patient.created webhooks`,
        async () => receiver.received.filter((r) => r.json.event_type === "patient.created").length >= PATIENTS,
      );

      // A PDF summary: a note filled, signed and completed through A is rendered by whichever process claims the job.
      const patientId = seed.patient_ids[0]!;
      const start = Math.floor(Date.now() / 1000) - 3600;
      const appointment = await call(b!, "POST", "/apis/v1/appointment", {
        doctor_id: seed.provider_ids[0],
        patient_id: patientId,
        clinic_id: seed.clinic_ids[0],
        appointment_category: [seed.appointment_category_ids[0]],
        timestamp: start,
        end_timestamp: start + 1800,
        payment_mode: "SELF_PAY",
      });
      expect(appointment.body).toMatchObject({ code: 2000 });
      const note = (
        await call(a!, "POST", "/apis/hep/v2/soap-context", {
          patient_id: patientId,
          type: "FOLLOWUP_SOAP",
          appointment_id: appointment.body.data.appointment_id,
        })
      ).body.data;
      const write = (submissionId: string, partialResponse: Record<string, unknown>) =>
        call(a!, "POST", "/apis/v1/form-data/partial", {
          submissionId,
          soapContextId: note.context_id,
          partialResponse,
          version: 2,
        });
      expect(
        (
          await write(note.subjective_submission_id, {
            "response.Subjective.history.chief_complaint": "Neck stiffness after a long drive",
          })
        ).status,
      ).toBe(200);
      expect(
        (await write(note.objective_submission_id, { "response.Objective.rom.cervical_rotation": "60 degrees" }))
          .status,
      ).toBe(200);
      expect(
        (await write(note.plan_submission_id, { "response.Plan.plan.home_program": "Chin tucks 3x10" })).status,
      ).toBe(200);
      const diagnosis = {
        uuid: "dx-1",
        id: 1,
        code: "M54.2",
        description: "Cervicalgia",
        revision: "ICD10",
        billing_type: "BILLABLE",
        is_primary: true,
      };
      expect(
        (await write(note.assessment_submission_id, { "response.Assessment.diagnosis.medical_diagnosis": [diagnosis] }))
          .status,
      ).toBe(200);
      const signing = await call(a!, "POST", `/apis/v1/soap-context/${note.context_id}/sign`);
      expect(signing.body, JSON.stringify(signing.body)).toMatchObject({ code: 2000 });
      expect(
        (
          await call(b!, "POST", `/apis/v1/soap-context/${note.context_id}`, {
            completed: true,
            status: "COMPLETED",
            completed_at: null,
          })
        ).body.data,
      ).toMatchObject({ status: "COMPLETED" });
      const rendered = await until("the PDF summary", async () => {
        const n = (await call(a!, "GET", `/apis/v1/soap-context/${note.context_id}`)).body.data;
        return n.summary_doc_url ? n : undefined;
      });
      const pdf = await call(b!, "GET", rendered.summary_doc_url);
      expect(pdf.status).toBe(200);
      const text = pdftotext(pdf.body as Buffer);
      expect(text).toContain("Neck stiffness after a long drive");
      await until("the soap_note.completed webhook", async () =>
        receiver.received.some((r) => r.json.event_type === "soap_note.completed"),
      );

      // A push: a browser registered through A, a notification sent through B, decrypted by the push service.
      const browser = push.subscribe();
      expect(
        (
          await call(a!, "POST", "/apis/v1/notifications/devices", {
            user_id: "p-1",
            user_type: "PATIENT",
            endpoint: browser.endpoint,
            keys: browser.keys,
          })
        ).status,
      ).toBe(201);
      const sent = await call(b!, "POST", "/apis/v1/notifications/deliver", {
        recipient: { user_id: "p-1", user_type: "PATIENT" },
        notification: { title: "Your summary is ready", body: "Open the app" },
      });
      expect(sent.status).toBe(202);
      const received = await until("the push", async () => push.received.find((p) => p.message));
      expect(received).toMatchObject({
        problem: null,
        vapid: { publicKey: vapid.publicKey },
        message: expect.objectContaining({ title: "Your summary is ready" }),
      });

      // Shared work: every job completed once; the slow deliveries were split between the processes.
      const raw = await openRawQuery(engine, db.url);
      try {
        const storage = await openEngineStorage(engine, db.url);
        await storage.transaction(async (tx) => {
          for (let i = 0; i < NOOP_JOBS; i++)
            await tx.jobs.enqueue({ queue: "system.noop", payload: { n: i }, runAt: new Date(Date.now() - 1000) });
        });
        await storage.close();
        // A job is marked done only after its handler's own commit (the push's attempt, the summary's PDFs), so the
        // push and summary jobs are awaited as well as the no-ops: a process slowed after the push service answered
        // could otherwise still hold its job while the other process finished every no-op.
        const doneQueues = ["system.noop", "webhooks.deliver", "soap.render-summary", "notifications.deliver"];
        await until("the queued jobs", async () => {
          const done = await raw.query("select queue, count(*) as n from jobs where status = 'done' group by queue");
          const count = (queue: string) => Number(done.find((d) => d.queue === queue)?.n ?? 0);
          return count("system.noop") === NOOP_JOBS && doneQueues.every((queue) => count(queue) > 0);
        });
        const jobs = await raw.query("select queue, attempts, completed_by from jobs where status = 'done'");
        expect(jobs.filter((j) => Number(j.attempts) !== 1)).toEqual([]);
        const workers = new Set(jobs.filter((j) => j.queue === "webhooks.deliver").map((j) => String(j.completed_by)));
        expect([...workers].sort()).toEqual(["emr-a", "emr-b"]);
        const kinds = new Set(jobs.map((j) => String(j.queue)));
        expect(kinds).toEqual(new Set(doneQueues));
      } finally {
        await raw.close();
      }
      const ids = receiver.received.map((r) => r.json.event_id);
      expect(new Set(ids).size).toBe(ids.length);
      expect(receiver.received.filter((r) => !signedByKey(r))).toEqual([]);
      expect(await Promise.all([stopEmr(a!), stopEmr(b!)])).toEqual([0, 0]);
    }, 120_000);

    it("after a restart with the same keys, the subscription's test delivery is signed and sent (no ephemeral key)", async () => {
      const c = await startEmr({ ...baseEnv(), EMR_WORKER_ID: "emr-c" });
      running.push(c);
      const tested = await call(c, "POST", `/apis/v1/webhooks/subscriptions/${subscriptionId}/test`);
      expect(tested.status).toBe(200);
      expect(tested.body.result).toMatchObject({ status: 200, error: null });
      const got = receiver.received.find((r) => r.json.event_id === tested.body.payload.event_id);
      expect(got && signedByKey(got)).toBe(true);
      expect(await stopEmr(c)).toBe(0);
    }, 60_000);
  });
}
