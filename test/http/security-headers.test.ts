import { createPractice } from "@openpractice/core";
import { createHttpHandler, createJwtAuthenticator, DOCS_CONTENT_SECURITY_POLICY } from "@openpractice/http";
import { signAccessToken } from "@openpractice/runtime";
import { MemoryStorage, testPracticeKeys } from "@openpractice/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, TEST_SECRET, type TestRuntime } from "../support/runtime-fixture.js";

type Json = any;

const UNKNOWN_ID = "2147480000";
const NO_STORE = /(^|[\s,])no-store($|[\s,])/;

/** The headers every reply carries, by name. */
const everyReply = {
  "x-content-type-options": "nosniff",
  "referrer-policy": "no-referrer",
  "x-frame-options": "DENY",
};

/**
 * ASVS 4 V8.2.1 and V14.4, HIPAA 164.312(e): every reply of every operation of the OpenAPI document, success or
 * error, carries nosniff, a referrer policy, a frame refusal and a CSP; every reply of an operation that needs a
 * token, and every error, carries Cache-Control: no-store, so no proxy or browser keeps patient data.
 */
describe("security headers on every operation of the running server", () => {
  let rt: TestRuntime;
  let trusting: TestRuntime;
  let doc: Json;

  beforeAll(async () => {
    rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' });
    trusting = await startTestRuntime({ OPENPRACTICE_TRUST_FORWARDED_PROTO: "true" });
    doc = await (await fetch(`${rt.url}/openapi.json`)).json();
  });
  afterAll(async () => {
    await rt?.stop();
    await trusting?.stop();
  });

  it("every operation, with and without a token, answers with them", async () => {
    const orgToken = await rt.token({ scope: "read write admin" });
    const platformToken = await rt.token({ platform: true, scope: "platform:admin" });
    const problems: string[] = [];
    let replies = 0;
    for (const [template, item] of Object.entries<Json>(doc.paths))
      for (const [method, op] of Object.entries<Json>(item)) {
        const authenticated = (op.security?.length ?? 0) > 0;
        const platform = authenticated && op.security.some((s: Json) => s.bearerAuth?.includes("platform:admin"));
        const path = template.replace(/\{[^}]+\}/g, UNKNOWN_ID);
        for (const token of authenticated ? [platform ? platformToken : orgToken, null] : [null]) {
          const res = await rt.call(method.toUpperCase(), path, {
            token,
            ...(method === "get" || method === "delete" ? {} : { body: {} }),
          });
          await res.arrayBuffer();
          replies += 1;
          const where = `${method.toUpperCase()} ${template} ${res.status}`;
          for (const [name, value] of Object.entries(everyReply))
            if (res.headers.get(name) !== value) problems.push(`${where}: ${name} is ${res.headers.get(name)}`);
          const html = res.headers.get("content-type")?.startsWith("text/html");
          const policy = res.headers.get("content-security-policy");
          if (policy !== (html ? DOCS_CONTENT_SECURITY_POLICY : "default-src 'none'; frame-ancestors 'none'"))
            problems.push(`${where}: content-security-policy is ${policy}`);
          if ((authenticated || res.status >= 400) && !NO_STORE.test(res.headers.get("cache-control") ?? ""))
            problems.push(`${where}: cache-control is ${res.headers.get("cache-control")}`);
          // Plain HTTP, no trusted proxy: no HSTS.
          if (res.headers.has("strict-transport-security")) problems.push(`${where}: HSTS over plain HTTP`);
        }
      }
    expect(problems).toEqual([]);
    expect(replies).toBeGreaterThan(200);
  });

  it("a public file keeps its own caching; a success of an authenticated route is no-store", async () => {
    const asset = await rt.call("GET", "/docs/assets/reference-init.js", { token: null });
    expect(asset.headers.get("cache-control")).toBe("public, max-age=3600");
    const created = await rt.call("POST", "/v2/patients", {
      body: { first_name: "Ada", last_name: "Lovelace", date_of_birth: "1990-01-01" },
    });
    expect(created.status).toBe(201);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const read = await rt.call("GET", `/apis/v1/patient/${(await created.json()).id}`);
    expect(read.status).toBe(200);
    expect(read.headers.get("cache-control")).toBe("no-store");
  });

  it("HSTS only over TLS: X-Forwarded-Proto is believed only when the runtime is told to", async () => {
    const forwarded = { "x-forwarded-proto": "https" };
    const untrusted = await rt.call("GET", "/healthz", { token: null, headers: forwarded });
    expect(untrusted.headers.get("strict-transport-security")).toBeNull();
    const trusted = await trusting.call("GET", "/v2/patients", { headers: forwarded });
    expect(trusted.headers.get("strict-transport-security")).toBe("max-age=31536000");
    const plain = await trusting.call("GET", "/v2/patients", { headers: { "x-forwarded-proto": "http" } });
    expect(plain.headers.get("strict-transport-security")).toBeNull();
  });
});

describe("security header options of createHttpHandler", () => {
  const secret = TEST_SECRET;
  const handlerWith = (securityHeaders?: Parameters<typeof createHttpHandler>[0]["securityHeaders"]) =>
    createHttpHandler({
      practice: createPractice({ storage: new MemoryStorage(), keys: testPracticeKeys() }),
      authenticator: createJwtAuthenticator({ secret }),
      ...(securityHeaders === undefined ? {} : { securityHeaders }),
    });
  let token: string;
  beforeAll(async () => {
    token = await signAccessToken(secret, { organisationId: 1, userId: 1, scope: "read" });
  });
  const get = (handler: ReturnType<typeof createHttpHandler>, url: string) =>
    handler(new Request(url, { headers: { authorization: `Bearer ${token}` } }));

  it("a request that came over TLS (an https URL, as a TLS host passes it) gets HSTS", async () => {
    const res = await get(handlerWith(), "https://emr.example.org/v2/patients");
    expect(res.status).toBe(200);
    expect(res.headers.get("strict-transport-security")).toBe("max-age=31536000");
    expect(
      (await get(handlerWith(), "http://emr.example.org/v2/patients")).headers.has("strict-transport-security"),
    ).toBe(false);
  });

  it("each header can be changed or turned off, and false sends none of them (a host that sets its own)", async () => {
    const changed = await get(
      handlerWith({
        referrerPolicy: "strict-origin",
        frameOptions: false,
        contentSecurityPolicy: false,
        strictTransportSecurity: "max-age=63072000; includeSubDomains; preload",
        cacheControl: "private, no-store, max-age=0",
      }),
      "https://emr.example.org/v2/patients",
    );
    expect(changed.headers.get("referrer-policy")).toBe("strict-origin");
    expect(changed.headers.has("x-frame-options")).toBe(false);
    expect(changed.headers.has("content-security-policy")).toBe(false);
    expect(changed.headers.get("x-content-type-options")).toBe("nosniff");
    expect(changed.headers.get("strict-transport-security")).toBe("max-age=63072000; includeSubDomains; preload");
    expect(changed.headers.get("cache-control")).toBe("private, no-store, max-age=0");
    const none = await get(handlerWith(false), "https://emr.example.org/v2/patients");
    expect(none.status).toBe(200);
    for (const name of [
      "cache-control",
      "x-content-type-options",
      "referrer-policy",
      "x-frame-options",
      "content-security-policy",
      "strict-transport-security",
    ])
      expect(none.headers.has(name), name).toBe(false);
  });
});
