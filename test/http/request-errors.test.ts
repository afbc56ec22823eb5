import { request } from "node:http";
import { MAX_JSON_DEPTH } from "@openpractice/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

let rt: TestRuntime;
beforeAll(async () => {
  rt = await startTestRuntime();
});
afterAll(async () => {
  await rt.stop();
});

const patientCount = async () => rt.scalar("select count(*) n from patients");

describe("bad request bodies change nothing and name the problem", () => {
  it.each([
    ["/apis/v1/patient", "v1"],
    ["/v2/patients", "v2"],
  ])("malformed JSON on %s", async (path, contract) => {
    const res = await rt.call("POST", path, { body: '{"first_name": "Ada",' });
    expect(res.status).toBe(400);
    const body = await res.json();
    if (contract === "v1")
      expect(body).toMatchObject({
        code: 4002,
        data: null,
        error_code: "MALFORMED_JSON",
        message: expect.stringContaining("not valid JSON"),
      });
    else expect(body.error).toMatchObject({ code: "MALFORMED_JSON" });
    expect(await patientCount()).toBe(0);
  });

  it("an empty body, a JSON array or a string is refused", async () => {
    expect((await (await rt.call("POST", "/apis/v1/patient", { body: "" })).json()).error_code).toBe("MALFORMED_JSON");
    const arr = await (await rt.call("POST", "/apis/v1/patient", { body: "[]" })).json();
    expect(arr).toMatchObject({
      error_code: "VALIDATION_FAILED",
      errors: [{ field: "(body)", reason: "must be of type object" }],
    });
  });

  it("a non-JSON content type is 415", async () => {
    const res = await rt.call("POST", "/v2/patients", {
      body: "first_name=Ada",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(res.status).toBe(415);
    expect((await res.json()).error.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it("wrong types are named per field", async () => {
    const res = await rt.call("POST", "/v2/patients", {
      body: { first_name: 7, last_name: ["x"], date_of_birth: 19900101, status: true },
    });
    const body = await res.json();
    expect(body.error.details.errors).toEqual([
      { field: "first_name", reason: "must be of type string", value: 7 },
      { field: "last_name", reason: "must be of type string", value: ["x"] },
      { field: "date_of_birth", reason: "must be of type string", value: 19900101 },
      { field: "status", reason: "must be of type string", value: true },
    ]);
  });

  it("a body over 1 MiB is 413 (declared length)", async () => {
    const big = JSON.stringify({
      first_name: "A",
      last_name: "B",
      date_of_birth: "1990-01-01",
      middle_name: "x".repeat(1024 * 1024),
    });
    const res = await rt.call("POST", "/apis/v1/patient", { body: big });
    expect(res.status).toBe(413);
    expect(await res.json()).toMatchObject({ code: 4130, error_code: "PAYLOAD_TOO_LARGE" });
    expect(await patientCount()).toBe(0);
  });

  it("a chunked body over 1 MiB without Content-Length is 413 too", async () => {
    const url = new URL(`${rt.url}/v2/patients`);
    const token = await rt.token();
    const status = await new Promise<number>((resolve, reject) => {
      const req = request(
        {
          host: url.hostname,
          port: url.port,
          path: url.pathname,
          method: "POST",
          headers: {
            "content-type": "application/json",
            authorization: `Bearer ${token}`,
            "transfer-encoding": "chunked",
          },
        },
        (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        },
      );
      req.on("error", reject);
      req.write('{"first_name":"A","last_name":"B","date_of_birth":"1990-01-01","middle_name":"');
      const chunk = "y".repeat(64 * 1024);
      for (let i = 0; i < 20; i++) req.write(chunk);
      req.end('"}');
    });
    expect(status).toBe(413);
    expect(await patientCount()).toBe(0);
  });

  it("an unknown v1 path is 404 in the v1 envelope and a wrong method is 405", async () => {
    const res = await rt.call("GET", "/apis/v1/nope");
    expect(res.status).toBe(404);
    expect(await res.json()).toMatchObject({ code: 4049, error_code: "ROUTE_NOT_FOUND" });
    const method = await rt.call("DELETE", "/apis/v1/patient/1");
    expect(method.status).toBe(405);
    expect(method.headers.get("allow")).toBe("GET, HEAD, POST");
  });

  it("a path with malformed percent-encoding is answered by the route, in the contract's shape", async () => {
    const v1 = await rt.call("GET", "/apis/v1/patient/%zz");
    expect(v1.status).toBe(404);
    expect(await v1.json()).toMatchObject({ code: 4040, data: null, error_code: "PATIENT_NOT_FOUND" });
    const v2 = await rt.call("GET", "/v2/patients/%ED%A0%80");
    expect(v2.status).toBe(404);
    expect((await v2.json()).error).toMatchObject({ code: "PATIENT_NOT_FOUND" });
    const unknown = await rt.call("GET", "/apis/v1/%");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toMatchObject({ code: 4049, error_code: "ROUTE_NOT_FOUND" });
  });

  it("a wrong method on the webhook and notification APIs is 405 in their v2 shape", async () => {
    for (const [method, path] of [
      ["PUT", "/apis/v1/webhooks/subscriptions/1"],
      ["DELETE", "/apis/v1/webhooks/event-types"],
      ["GET", "/apis/v1/notifications/3/read"],
      ["PUT", "/v2/patients/1"],
    ]) {
      const res = await rt.call(method!, path!, { body: method === "GET" ? undefined : {} });
      expect(res.status, path).toBe(405);
      expect(await res.json(), path).toMatchObject({
        error: { code: "METHOD_NOT_ALLOWED", details: {} },
        meta: { request_id: expect.any(String) },
      });
    }
  });

  it("echoes a safe caller request id and replaces an unsafe one", async () => {
    const ok = await rt.call("GET", "/healthz", { headers: { "x-request-id": "abc-123" } });
    expect(ok.headers.get("x-request-id")).toBe("abc-123");
    const bad = await rt.call("GET", "/healthz", { headers: { "x-request-id": "<script>" } });
    expect(bad.headers.get("x-request-id")).toMatch(/^req_[0-9a-f-]{36}$/);
  });

  it("a body nested deeper than MAX_JSON_DEPTH is 400 VALIDATION_FAILED on every JSON body route, in the route's contract, with its request id", async () => {
    const deep = "[".repeat(6000) + "]".repeat(6000);
    const document = await (await rt.call("GET", "/openapi.json")).json();
    const operations = Object.entries(
      document.paths as Record<string, Record<string, { requestBody?: unknown }>>,
    ).flatMap(([path, ops]) =>
      Object.entries(ops)
        // JSON bodies only (the token endpoint reads a form, and answers in RFC 6749's shape).
        .filter(([, op]) =>
          Object.hasOwn((op.requestBody as { content?: object } | undefined)?.content ?? {}, "application/json"),
        )
        .map(([method, op]) => ({ method: method.toUpperCase(), path: path.replace(/\{[^}]+\}/g, "1"), op })),
    );
    expect(operations.length).toBeGreaterThanOrEqual(30);
    const admin = await rt.token({ scope: "admin read write" });
    const platform = await rt.token({ platform: true, scope: "platform:admin" });
    for (const { method, path } of operations) {
      const token = path.startsWith("/v2/organisations") ? platform : admin;
      const requestId = `deep-${method}-${path.replace(/[^A-Za-z0-9]/g, "-")}`.slice(0, 64);
      const res = await rt.call(method, path, { body: deep, token, headers: { "x-request-id": requestId } });
      const body = await res.json();
      const where = `${method} ${path}`;
      expect(res.headers.get("x-request-id"), where).toBe(requestId);
      const v2 =
        path.startsWith("/v2/") || path.startsWith("/apis/v1/webhooks") || path.startsWith("/apis/v1/notifications");
      // Spec 7.1: SOAP note creation delivers its client errors with HTTP 200 (the route's v1ErrorStatus).
      expect(res.status, where).toBe(path === "/apis/hep/v2/soap-context" ? 200 : 400);
      if (path === "/apis/sso/launch") {
        // Single sign-on's launch answers every refusal in RFC 6749's shape, as its token endpoint does.
        expect(body, where).toMatchObject({ error: "invalid_request" });
        expect(body.error_description, where).toContain(`deeper than ${MAX_JSON_DEPTH} levels`);
      } else if (v2) {
        expect(body, where).toMatchObject({
          error: {
            code: "VALIDATION_FAILED",
            details: {
              errors: [
                { field: "(body)", reason: `must not nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels` },
              ],
            },
          },
          meta: { request_id: requestId },
        });
      } else {
        expect(body, where).toMatchObject({
          code: 4000,
          data: null,
          error_code: "VALIDATION_FAILED",
          errors: [{ field: "(body)" }],
        });
      }
    }
  });

  it("the depth limit counts brackets, not characters in strings: 64 levels parse, 65 do not", async () => {
    const nested = (levels: number) => "[".repeat(levels) + "]".repeat(levels);
    const at = await (await rt.call("POST", "/v2/patients", { body: nested(MAX_JSON_DEPTH) })).json();
    // Parsed, then refused by the schema: the echoed value is cut short instead of 64 levels deep.
    expect(at.error.details.errors).toEqual([
      { field: "(body)", reason: "must be of type object", value: [[[["[array of 1 items]"]]]] },
    ]);
    const over = await (await rt.call("POST", "/v2/patients", { body: nested(MAX_JSON_DEPTH + 1) })).json();
    expect(over.error.details.errors[0].reason).toContain("deeper than");
    const inString = await rt.call("POST", "/v2/patients", {
      body: JSON.stringify({
        first_name: "B",
        last_name: "B",
        date_of_birth: "1990-01-01",
        emergency_contact: { name: "[{".repeat(90) + '\\"[' },
      }),
    });
    expect(inString.status).toBe(201);
  });

  it("errors echo long values cut short, and wide ones shortened", async () => {
    const before = await patientCount();
    const res = await rt.call("POST", "/v2/patients", {
      body: {
        first_name: "A",
        last_name: "B",
        date_of_birth: "1990-01-01",
        status: "z".repeat(100_000),
        gender: Array.from({ length: 500 }, (_, i) => i),
      },
    });
    expect(res.status).toBe(400);
    const text = await res.text();
    expect(text.length).toBeLessThan(4000);
    const errors = JSON.parse(text).error.details.errors as { field: string; value: unknown }[];
    expect(errors.find((e) => e.field === "status")!.value).toBe(`${"z".repeat(200)}… (100000 characters)`);
    const gender = errors.find((e) => e.field === "gender")!.value as unknown[];
    expect(gender).toHaveLength(21);
    expect(gender.at(-1)).toBe("… 480 more items");
    expect(await patientCount()).toBe(before);
  });
});
