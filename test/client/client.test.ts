import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { createOpenPracticeClient, type V1Error } from "@openpractice/client";
import { openPracticeMiddleware } from "@openpractice/express";
import { createHttpHandler, createJwtAuthenticator } from "@openpractice/http";
import { seedDemo, type SeedSummary } from "@openpractice/runtime";
import express from "express";
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from "vitest";
import { startTestRuntime, TEST_SECRET, type TestRuntime } from "../support/runtime-fixture.js";

const listen = (server: Server) =>
  new Promise<string>((resolve) =>
    server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  );
const close = (server: Server) => new Promise<void>((resolve) => server.close(() => resolve()));
const bodyOf = async (req: IncomingMessage) => {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString("utf8");
};

describe("@openpractice/client against the real runtime", () => {
  let rt: TestRuntime;
  let seed: SeedSummary;

  beforeAll(async () => {
    rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' });
    seed = await seedDemo(rt.runtime.practice, { organisationId: 1, patients: 5, jwtSecret: TEST_SECRET });
  });
  afterAll(() => rt.stop());

  it("v1: sends the token, unwraps the envelope, and types the data as the server sends it", async () => {
    const op = createOpenPracticeClient({ baseUrl: rt.url, token: seed.token as string });
    const created = await op.v1.POST("/apis/v1/patient", {
      body: {
        first_name: "Ada",
        last_name: "Quill",
        date_of_birth: "1970-07-07",
        clinic_id: seed.clinic_ids[0] as number,
      },
    });
    if (!created.ok) throw new Error(`create failed: ${JSON.stringify(created.error)}`);
    expect(created.code).toBe(2000);
    expectTypeOf(created.data.patient_id).toEqualTypeOf<number>();
    expect(typeof created.data.patient_id).toBe("number");
    const read = await op.v1.GET("/apis/v1/patient/{id}", {
      params: { path: { id: String(created.data.patient_id) } },
    });
    expect(read.ok && read.data.last_name).toBe("Quill");

    const again = await op.v1.POST("/apis/v1/patient", {
      body: { first_name: "ADA", last_name: "quill", date_of_birth: "1970-07-07" },
    });
    // 2301 "already exists" is a success with the existing record.
    expect(again.ok && [again.code, again.data.patient_id]).toEqual([2301, created.data.patient_id]);
  });

  it("v1: an error is a value with the v1 error body, whatever the HTTP status", async () => {
    const op = createOpenPracticeClient({ baseUrl: rt.url, token: seed.token as string });
    const missing = await op.v1.GET("/apis/v1/patient/{id}", { params: { path: { id: "999999" } } });
    expect(missing.ok).toBe(false);
    if (missing.ok) return;
    // The documented error body: the v1 error's fields, error_code one of the catalogue's codes.
    expectTypeOf<NonNullable<typeof missing.error>["error_code"]>().toEqualTypeOf<V1Error["error_code"]>();
    expect([missing.status, missing.error?.code, missing.error?.error_code]).toEqual([404, 4040, "PATIENT_NOT_FOUND"]);
    // Spec 7.1: SOAP note creation answers its errors with HTTP 200; the envelope's code decides.
    const note = await op.v1.POST("/apis/hep/v2/soap-context", {
      body: { patient_id: 999999, type: "FOLLOWUP_SOAP", appointment_id: seed.appointment_ids[0] as number },
    });
    expect(note.ok).toBe(false);
    expect(!note.ok && [note.status, note.error?.code]).toEqual([200, 4040]);
  });

  it("v2: the resource as sent, and errors typed as the v2 error body", async () => {
    const op = createOpenPracticeClient({ baseUrl: rt.url, token: seed.token as string });
    const created = await op.v2.POST("/v2/patients", {
      body: { first_name: "Zoë", last_name: "Marchetti", date_of_birth: "1988-02-29", gender: "female" },
    });
    if (!created.ok) throw new Error(`create failed: ${JSON.stringify(created.error)}`);
    expect(created.status).toBe(201);
    expectTypeOf(created.data.id).toEqualTypeOf<string>();
    const list = await op.v2.GET("/v2/patients", { params: { query: { search: "zoe marchetti", per_page: 5 } } });
    expect(list.ok && list.data.data.map((p) => p.id)).toEqual([created.data.id]);
    const missing = await op.v2.GET("/v2/patients/{id}", { params: { path: { id: "999999" } } });
    expect(!missing.ok && [missing.status, missing.error?.error.code]).toEqual([404, "PATIENT_NOT_FOUND"]);
    const unauthenticated = await createOpenPracticeClient({ baseUrl: rt.url }).v2.GET("/v2/patients");
    expect(!unauthenticated.ok && [unauthenticated.status, unauthenticated.error?.error.code]).toEqual([
      401,
      "UNAUTHORIZED",
    ]);
  });

  it("refuses, at compile time, paths the document does not have and bodies of the wrong type", () => {
    const op = createOpenPracticeClient({ baseUrl: rt.url });
    // Never called: these lines only have to fail type-checking (tsc runs over the tests).
    const typeChecksOnly = () => {
      // @ts-expect-error: no such path
      void op.v2.GET("/v2/no-such-path");
      // @ts-expect-error: date_of_birth is a string
      void op.v2.POST("/v2/patients", { body: { first_name: "A", last_name: "B", date_of_birth: 1970 } });
    };
    expect(typeof typeChecksOnly).toBe("function");
  });

  it("works under the path a host mounts the API at (Express, /emr)", async () => {
    const handler = createHttpHandler({
      practice: rt.runtime.practice,
      authenticator: createJwtAuthenticator({ secret: TEST_SECRET }),
    });
    const app = express();
    app.use("/emr", openPracticeMiddleware(handler));
    const server = createServer(app);
    const url = await listen(server);
    try {
      const op = createOpenPracticeClient({ baseUrl: `${url}/emr/`, token: seed.token as string });
      const created = await op.v2.POST("/v2/patients", {
        body: { first_name: "Ines", last_name: "Prefix", date_of_birth: "1991-01-01" },
      });
      expect(created.ok).toBe(true);
      expect(created.response.url).toBe(`${url}/emr/v2/patients`);
      expect(created.response.headers.get("location")).toMatch(/^\/emr\/v2\/patients\/\d+$/);
      const document = await op.api.GET("/openapi.json");
      expect(document.response.status).toBe(200);
    } finally {
      await close(server);
    }
  });

  it("honours Retry-After on 429 from the runtime's own rate limit, then hands the 429 over", async () => {
    const limited = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":2}' });
    try {
      const token = await limited.token();
      const waits: number[] = [];
      const op = createOpenPracticeClient({
        baseUrl: limited.url,
        token,
        // Records the waits instead of sleeping a minute.
        retry: { maxAttempts: 3, maxDelayMs: 120_000, sleep: async (ms) => void waits.push(ms) },
      });
      for (let i = 0; i < 2; i++) expect((await op.v2.GET("/v2/patients")).status).toBe(200);
      const over = await op.v2.GET("/v2/patients");
      expect(over.status).toBe(429);
      const retryAfter = Number(over.response.headers.get("retry-after"));
      expect(retryAfter).toBeGreaterThan(0);
      expect(waits).toHaveLength(2);
      for (const ms of waits) expect(Math.abs(ms - retryAfter * 1000)).toBeLessThanOrEqual(1000);
      // A wait longer than the client accepts is not waited for.
      const impatient: number[] = [];
      const quick = createOpenPracticeClient({
        baseUrl: limited.url,
        token,
        retry: { maxDelayMs: 10, sleep: async (ms) => void impatient.push(ms) },
      });
      expect((await quick.v2.GET("/v2/patients")).status).toBe(429);
      expect(impatient).toEqual([]);
    } finally {
      await limited.stop();
    }
  });

  it("adds an idempotency key where the operation takes one, and keeps it across a retry", async () => {
    const op = createOpenPracticeClient({ baseUrl: rt.url, token: seed.token as string });
    const delivered = await op.v1.POST("/apis/v1/notifications/deliver", {
      body: { recipient: { user_id: "42", user_type: "PATIENT" }, notification: { title: "Hello", body: "Hi" } },
    });
    if (!delivered.ok) throw new Error(JSON.stringify(delivered.error));
    expect(delivered.status).toBe(202);
    const stored = await op.v1.GET("/apis/v1/notifications/{notification_id}", {
      params: { path: { notification_id: delivered.data.notification_id } },
    });
    expect(stored.ok && stored.data.idempotency_key).toMatch(/^[0-9a-f-]{36}$/);
    // A caller's own key is kept.
    const own = await op.v1.POST("/apis/v1/notifications/deliver", {
      body: {
        recipient: { user_id: "42", user_type: "PATIENT" },
        notification: { title: "Hello" },
        idempotency_key: "mine-1",
      },
    });
    const replay = await op.v1.POST("/apis/v1/notifications/deliver", {
      body: {
        recipient: { user_id: "42", user_type: "PATIENT" },
        notification: { title: "Hello" },
        idempotency_key: "mine-1",
      },
    });
    expect(own.ok && replay.ok && replay.data.notification_id).toBe(own.ok && own.data.notification_id);

    // A stand-in that answers 429 once: both attempts carry the same body, key included.
    const bodies: string[] = [];
    const flaky = createServer(async (req, res) => {
      bodies.push(await bodyOf(req));
      if (bodies.length === 1) res.writeHead(429, { "retry-after": "0", "content-type": "application/json" });
      else res.writeHead(202, { "content-type": "application/json" });
      res.end(JSON.stringify(bodies.length === 1 ? { error: { code: "RATE_LIMITED" } } : { notification_id: "ntf_1" }));
    });
    const url = await listen(flaky);
    try {
      const client = createOpenPracticeClient({ baseUrl: url, token: "t", idempotencyKey: () => "key-1" });
      const result = await client.v1.POST("/apis/v1/notifications/deliver", {
        body: { recipient: { user_id: "1", user_type: "PATIENT" }, notification: { title: "x" } },
      });
      expect(result.status).toBe(202);
      expect(bodies).toHaveLength(2);
      expect(bodies[0]).toBe(bodies[1]);
      expect(JSON.parse(bodies[0] as string).idempotency_key).toBe("key-1");
    } finally {
      await close(flaky);
    }
  });
});
