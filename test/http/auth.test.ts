import { generateKeyPairSync, type KeyObject } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import jwt from "jsonwebtoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, TEST_SECRET, type TestRuntime } from "../support/runtime-fixture.js";

// Tokens here are made with jsonwebtoken and node:crypto, independent of the jose code under test.
const rsa = generateKeyPairSync("rsa", { modulusLength: 2048 });
const ec = generateKeyPairSync("ec", { namedCurve: "P-256" });
const stranger = generateKeyPairSync("rsa", { modulusLength: 2048 });
const claims = { organisation_id: 1, user_id: 101, scope: "read write" };

let jwks: Server;
let rt: TestRuntime;

function jwk(key: KeyObject, kid: string, alg: string) {
  return { ...key.export({ format: "jwk" }), kid, alg, use: "sig" };
}

beforeAll(async () => {
  jwks = createServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ keys: [jwk(rsa.publicKey, "rsa-1", "RS256"), jwk(ec.publicKey, "ec-1", "ES256")] }));
  });
  await new Promise<void>((r) => jwks.listen(0, "127.0.0.1", r));
  rt = await startTestRuntime({ OPENPRACTICE_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json` });
});
afterAll(async () => {
  await rt.stop();
  jwks.close();
});

const v1 = (token: string | null) => rt.call("GET", "/apis/v1/patient/1", { token });
const v2 = (token: string | null) => rt.call("GET", "/v2/patients", { token });

describe("authentication", () => {
  it("accepts an HS256 token signed with the configured secret by another JWT library", async () => {
    const token = jwt.sign(claims, TEST_SECRET, { algorithm: "HS256", expiresIn: "5m" });
    expect((await v2(token)).status).toBe(200);
  });

  it("accepts RS256 and ES256 tokens whose keys the JWKS endpoint publishes", async () => {
    const rs = jwt.sign(claims, rsa.privateKey, { algorithm: "RS256", keyid: "rsa-1", expiresIn: "5m" });
    const es = jwt.sign(claims, ec.privateKey, { algorithm: "ES256", keyid: "ec-1", expiresIn: "5m" });
    expect((await v2(rs)).status).toBe(200);
    expect((await v2(es)).status).toBe(200);
  });

  const bad: Array<[string, () => string | null, string]> = [
    ["missing", () => null, "missing Authorization header"],
    ["malformed", () => "not.a.jwt", "token is malformed"],
    ["wrongly signed", () => jwt.sign(claims, "another-secret-another-secret-1234567", { algorithm: "HS256", expiresIn: "5m" }), "token signature is invalid"],
    ["unsigned (alg none)", () => jwt.sign(claims, "", { algorithm: "none" as never, expiresIn: "5m" }), "token algorithm none is not accepted"],
    ["expired", () => jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 120 }, TEST_SECRET, { algorithm: "HS256" }), "token has expired"],
    ["without exp", () => jwt.sign(claims, TEST_SECRET, { algorithm: "HS256" }), "token has no exp claim"],
    ["without organisation_id", () => jwt.sign({ user_id: 1, scope: "read" }, TEST_SECRET, { algorithm: "HS256", expiresIn: "5m" }), "token has no valid organisation_id claim"],
    ["signed by an unknown RSA key", () => jwt.sign(claims, stranger.privateKey, { algorithm: "RS256", keyid: "rsa-1", expiresIn: "5m" }), "token signature is invalid"],
  ];

  it.each(bad)("refuses a %s token with 401 in the v1 envelope", async (_name, make, reason) => {
    const res = await v1(make());
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(_name === "missing" ? "Bearer" : 'Bearer error="invalid_token"');
    expect(await res.json()).toEqual({ code: 4010, data: null, message: "Authentication required", error_code: "UNAUTHORIZED", details: { reason } });
  });

  it.each(bad)("refuses a %s token with 401 UNAUTHORIZED in the v2 shape naming the reason", async (_name, make, reason) => {
    const res = await v2(make());
    expect(res.status).toBe(401);
    expect(await res.json()).toEqual({ error: { code: "UNAUTHORIZED", message: "Authentication required", details: { reason } }, meta: { timestamp: expect.any(String), request_id: expect.any(String) } });
  });

  it("with an identity provider and no explicit secret, refuses HS256 tokens made with the generated secret", async () => {
    const jwksOnly = await startTestRuntime({ OPENPRACTICE_JWT_SECRET: "", OPENPRACTICE_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks` });
    try {
      const generated = readFileSync(join(jwksOnly.dataDir, "jwt-secret"), "utf8").trim();
      const hs = jwt.sign(claims, generated, { algorithm: "HS256", expiresIn: "5m" });
      const refused = await jwksOnly.call("GET", "/v2/patients", { token: hs });
      expect(refused.status).toBe(401);
      expect((await refused.json()).error.details.reason).toBe("token algorithm HS256 is not accepted");
      const rs = jwt.sign(claims, rsa.privateKey, { algorithm: "RS256", keyid: "rsa-1", expiresIn: "5m" });
      expect((await jwksOnly.call("GET", "/v2/patients", { token: rs })).status).toBe(200);
    } finally {
      await jwksOnly.stop();
    }
  });

  it("refuses a non-Bearer scheme", async () => {
    const res = await rt.call("GET", "/v2/patients", { token: null, headers: { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` } });
    expect(res.status).toBe(401);
    expect((await res.json()).error.details.reason).toBe("Authorization header must be 'Bearer <token>'");
  });
});
