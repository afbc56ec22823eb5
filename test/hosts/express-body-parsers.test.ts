import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import { createPractice, type Practice } from "@openpractice/core";
import { keepRawBody, openPracticeMiddleware } from "@openpractice/express";
import { createHttpHandler, createJwtAuthenticator, createTokenIssuer, generateSigningKey } from "@openpractice/http";
import { createSqliteStorage } from "@openpractice/sqlite";
import { testAccessToken, testPracticeKeys } from "@openpractice/testing";
import express, { type ErrorRequestHandler, type RequestHandler } from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";

// The most common Express set-up parses bodies app-wide before any router: app.use(express.json()). OpenPractice
// mounted after it must still read each body as it was sent, with Express 5's own parsers (body-parser 2).

const SECRET = "s".repeat(32);

async function listen(server: Server) {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

/** An Express app with `before` mounted app-wide, then `handler` under /emr; errors passed to next are answered as JSON. */
function appWith(before: RequestHandler[], handler: Parameters<typeof openPracticeMiddleware>[0]) {
  const app = express();
  for (const middleware of before) app.use(middleware);
  app.use("/emr", openPracticeMiddleware(handler));
  const onError: ErrorRequestHandler = (error, _req, res, _next) =>
    void res.status(error.status ?? 500).json({ host_error: error.name, message: error.message });
  app.use(onError);
  return listen(createServer(app));
}

/** A fetch handler that answers with what it was handed: the bytes, and the headers that describe them. */
const echo = async (request: Request) =>
  Response.json({
    bytes: Buffer.from(await request.arrayBuffer()).toString("base64"),
    contentLength: request.headers.get("content-length"),
    contentEncoding: request.headers.get("content-encoding"),
  });

describe("openPracticeMiddleware after Express 5's body parsers: each handler reads the body as sent", () => {
  const hosts: { close(): Promise<void> }[] = [];
  const host = async (before: RequestHandler[], handler = echo) => {
    const started = await appWith(before, handler);
    hosts.push(started);
    return started.url;
  };
  afterAll(() => Promise.all(hosts.map((h) => h.close())));

  const echoed = async (url: string, init: RequestInit) => {
    const res = await fetch(`${url}/emr/echo`, { method: "POST", ...init });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { bytes: string; contentLength: string; contentEncoding: string | null };
    return { ...body, text: Buffer.from(body.bytes, "base64").toString("utf8") };
  };

  it("express.json({ verify: keepRawBody }): the bytes exactly, duplicate names, spacing and big numbers included", async () => {
    const url = await host([express.json({ verify: keepRawBody })]);
    const sent = '{ "a": 1, "a": 2,\n  "n": 9007199254740993, "s": "\\ud800" }';
    const got = await echoed(url, { body: sent, headers: { "content-type": "application/json" } });
    expect(got.text).toBe(sent);
    expect(got.contentLength).toBe(String(Buffer.byteLength(sent)));
  });

  it("express.json(): the parsed value written back as JSON, which JSON.parse reads as the same value", async () => {
    const url = await host([express.json()]);
    const sent = '{ "a": 1, "a": 2, "name": "Zoë", "s": "\\ud800", "list": [1.5, true, null] }';
    const got = await echoed(url, { body: sent, headers: { "content-type": "application/json; charset=utf-8" } });
    expect(JSON.parse(got.text)).toEqual(JSON.parse(sent));
    expect(got.text).toBe('{"a":2,"name":"Zoë","s":"\\ud800","list":[1.5,true,null]}');
    expect(got.contentLength).toBe(String(Buffer.byteLength(got.text)));
  });

  it("a gzipped body the parser inflated is handed on inflated, without its Content-Encoding", async () => {
    const url = await host([express.json({ verify: keepRawBody })]);
    const sent = JSON.stringify({ note: "x".repeat(5000) });
    const got = await echoed(url, {
      body: gzipSync(sent),
      headers: { "content-type": "application/json", "content-encoding": "gzip" },
    });
    expect(got.text).toBe(sent);
    expect(got.contentEncoding).toBeNull();
    expect(got.contentLength).toBe(String(sent.length));
  });

  it("express.raw() and express.text(): the bytes and the text the parser kept", async () => {
    const bytes = Buffer.from([0x7b, 0x22, 0x78, 0x22, 0x3a, 0x31, 0x7d, 0x0a, 0xff]);
    const raw = await echoed(await host([express.raw({ type: "*/*" })]), {
      body: bytes,
      headers: { "content-type": "application/octet-stream" },
    });
    expect(Buffer.from(raw.bytes, "base64")).toEqual(bytes);
    const text = await echoed(await host([express.text({ type: "application/json" })]), {
      body: '{"x": "text"}',
      headers: { "content-type": "application/json" },
    });
    expect(text.text).toBe('{"x": "text"}');
  });

  it("a body the parser skipped (another media type) is still streamed as sent", async () => {
    const url = await host([express.json()]);
    const sent = '{"op": "merge", "op": "again"}';
    const got = await echoed(url, { body: sent, headers: { "content-type": "application/merge-patch+json" } });
    expect(got.text).toBe(sent);
  });

  it("express.urlencoded(): fields encoded again, a repeated name kept; nested fields refused naming the fix", async () => {
    const flat = await echoed(await host([express.urlencoded({ extended: false })]), {
      body: "grant_type=client_credentials&scope=a&scope=b&note=x%20y",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect([...new URLSearchParams(flat.text)]).toEqual([
      ["grant_type", "client_credentials"],
      ["scope", "a"],
      ["scope", "b"],
      ["note", "x y"],
    ]);
    const nested = await fetch(`${await host([express.urlencoded({ extended: true })])}/emr/echo`, {
      method: "POST",
      body: "client[id]=1",
      headers: { "content-type": "application/x-www-form-urlencoded" },
    });
    expect(nested.status).toBe(500);
    expect(await nested.json()).toEqual({
      host_error: "BodyAlreadyReadError",
      message: expect.stringMatching(
        /^OpenPractice cannot read the body of POST \/emr\/echo: .*Mount openPracticeMiddleware before that middleware, or give the body parser `verify: keepRawBody`/,
      ),
    });
  });

  it("a body read by other middleware that kept nothing: BodyAlreadyReadError naming the fix, the handler not called", async () => {
    let called = false;
    const drain: RequestHandler = (req, _res, next) => {
      req.resume();
      req.on("end", () => next());
    };
    const url = await host([drain], async (request) => {
      called = true;
      return echo(request);
    });
    const res = await fetch(`${url}/emr/echo`, {
      method: "POST",
      body: '{"a":1}',
      headers: { "content-type": "application/json" },
    });
    expect(res.status).toBe(500);
    expect((await res.json()).host_error).toBe("BodyAlreadyReadError");
    expect(called).toBe(false);
  });
});

describe("the API after app.use(express.json()) and app.use(express.urlencoded())", () => {
  let storage: Awaited<ReturnType<typeof createSqliteStorage>>;
  let practice: Practice;
  let url: string;
  let close: () => Promise<void>;

  beforeAll(async () => {
    storage = await createSqliteStorage({ filename: ":memory:" });
    practice = createPractice({ storage, keys: testPracticeKeys() });
    const handler = createHttpHandler({
      practice,
      authenticator: createJwtAuthenticator({ secret: SECRET }),
      tokenIssuer: createTokenIssuer({ keys: [await generateSigningKey()] }),
    });
    ({ url, close } = await appWith([express.json(), express.urlencoded({ extended: false })], handler));
  });
  afterAll(async () => {
    await close();
    await storage.close();
  });

  it("a valid POST registers the patient (201), an invalid one answers the contract's error naming the field", async () => {
    const token = await testAccessToken(SECRET, { organisationId: 1, userId: 101, scope: "read write" });
    const post = (body: unknown) =>
      fetch(`${url}/emr/v2/patients`, {
        method: "POST",
        headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const created = await post({ first_name: "Ada", last_name: "Byron", date_of_birth: "1985-04-12" });
    expect(created.status).toBe(201);
    expect(await created.json()).toMatchObject({ first_name: "Ada", last_name: "Byron" });
    const refused = await post({ first_name: "Ada", date_of_birth: "1985-04-12" });
    expect(refused.status).toBe(400);
    expect((await refused.json()).error).toMatchObject({
      code: "VALIDATION_FAILED",
      details: { errors: [expect.objectContaining({ field: "last_name" })] },
    });
  });

  it("the token endpoint reads the form express.urlencoded() parsed, and still refuses a repeated parameter", async () => {
    const org = await practice.organisationAdmin.create({ name: "Parsed forms" });
    const { client, secret } = await practice.apiClients.createForOrganisation(org.id, {
      name: "Integration",
      scopes: ["patients:read"],
    });
    const token = (form: string) =>
      fetch(`${url}/emr/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: form,
      });
    const base = `grant_type=client_credentials&client_id=${client.clientId}&client_secret=${encodeURIComponent(secret)}`;
    const granted = await token(`${base}&scope=patients%3Aread`);
    expect(granted.status).toBe(200);
    expect(await granted.json()).toMatchObject({ token_type: "Bearer", scope: "patients:read" });
    const repeated = await token(`${base}&scope=patients%3Aread&scope=patients%3Aread`);
    expect(repeated.status).toBe(400);
    expect(await repeated.json()).toEqual({
      error: "invalid_request",
      error_description: "parameter scope is repeated",
    });
  });
});
