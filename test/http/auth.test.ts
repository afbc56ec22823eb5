import { createHmac, generateKeyPairSync, type KeyObject } from "node:crypto";
import { existsSync } from "node:fs";
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
// The identity provider's tokens name it and this API; HS256 tokens without them are accepted as before.
const ISSUER = "https://idp.test/";
const AUDIENCE = "https://api.clinic.test";
const claims = { organisation_id: 1, user_id: 101, scope: "read write", iss: ISSUER, aud: AUDIENCE };

let jwks: Server;
let rt: TestRuntime;

/** A token with the given protected header, signed with the test secret. */
function withHeader(header: Record<string, unknown>): string {
  const part = (o: object) => Buffer.from(JSON.stringify(o)).toString("base64url");
  const input = `${part(header)}.${part({ ...claims, exp: Math.floor(Date.now() / 1000) + 300 })}`;
  return `${input}.${createHmac("sha256", TEST_SECRET).update(input).digest("base64url")}`;
}

function jwk(key: KeyObject, kid: string, alg: string) {
  return { ...key.export({ format: "jwk" }), kid, alg, use: "sig" };
}

beforeAll(async () => {
  jwks = createServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ keys: [jwk(rsa.publicKey, "rsa-1", "RS256"), jwk(ec.publicKey, "ec-1", "ES256")] }));
  });
  await new Promise<void>((r) => jwks.listen(0, "127.0.0.1", r));
  rt = await startTestRuntime({
    OPENPRACTICE_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/.well-known/jwks.json`,
    OPENPRACTICE_JWT_ISSUER: ISSUER,
    OPENPRACTICE_JWT_AUDIENCE: AUDIENCE,
  });
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
    [
      "wrongly signed",
      () => jwt.sign(claims, "another-secret-another-secret-1234567", { algorithm: "HS256", expiresIn: "5m" }),
      "token signature is invalid",
    ],
    [
      "unsigned (alg none)",
      () => jwt.sign(claims, "", { algorithm: "none" as never, expiresIn: "5m" }),
      "token uses an unsupported algorithm",
    ],
    [
      "HS384",
      () => jwt.sign(claims, TEST_SECRET, { algorithm: "HS384", expiresIn: "5m" }),
      "token uses an unsupported algorithm",
    ],
    [
      "made-up alg",
      () => withHeader({ alg: "<script>alert(1)</script>".repeat(50), typ: "JWT" }),
      "token uses an unsupported algorithm",
    ],
    [
      "exp 1e300",
      () => jwt.sign({ ...claims, exp: 1e300 }, TEST_SECRET, { algorithm: "HS256" }),
      "token lifetime exceeds the maximum of 86400 seconds",
    ],
    [
      "25 h lifetime",
      () => jwt.sign(claims, TEST_SECRET, { algorithm: "HS256", expiresIn: "25h" }),
      "token lifetime exceeds the maximum of 86400 seconds",
    ],
    [
      "25 h to go without iat",
      () =>
        jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) + 25 * 3600 }, TEST_SECRET, {
          algorithm: "HS256",
          noTimestamp: true,
        }),
      "token lifetime exceeds the maximum of 86400 seconds",
    ],
    [
      "issued 2 days ago for 3 days",
      () =>
        jwt.sign(
          { ...claims, iat: Math.floor(Date.now() / 1000) - 2 * 86400, exp: Math.floor(Date.now() / 1000) + 86400 },
          TEST_SECRET,
          { algorithm: "HS256" },
        ),
      "token lifetime exceeds the maximum of 86400 seconds",
    ],
    [
      "20 KB",
      () => jwt.sign({ ...claims, padding: "x".repeat(15_000) }, TEST_SECRET, { algorithm: "HS256", expiresIn: "5m" }),
      "token is too large (at most 16384 characters)",
    ],
    [
      "expired",
      () => jwt.sign({ ...claims, exp: Math.floor(Date.now() / 1000) - 120 }, TEST_SECRET, { algorithm: "HS256" }),
      "token has expired",
    ],
    ["without exp", () => jwt.sign(claims, TEST_SECRET, { algorithm: "HS256" }), "token has no exp claim"],
    [
      "without organisation_id",
      () => jwt.sign({ user_id: 1, scope: "read" }, TEST_SECRET, { algorithm: "HS256", expiresIn: "5m" }),
      "token has no valid organisation_id claim",
    ],
    [
      "signed by an unknown RSA key",
      () => jwt.sign(claims, stranger.privateKey, { algorithm: "RS256", keyid: "rsa-1", expiresIn: "5m" }),
      "token signature is invalid",
    ],
  ];

  // RFC 6750 section 3: no error code without a bearer token, invalid_token with a description for a bad one.
  const challenge = (name: string, reason: string) =>
    name === "missing"
      ? 'Bearer realm="openpractice"'
      : `Bearer realm="openpractice", error="invalid_token", error_description="${reason}"`;

  it.each(bad)("refuses a %s token with 401 in the v1 envelope", async (name, make, reason) => {
    const res = await v1(make());
    expect(res.status).toBe(401);
    expect(res.headers.get("www-authenticate")).toBe(challenge(name, reason));
    expect(await res.json()).toEqual({
      code: 4010,
      data: null,
      message: "Authentication required",
      error_code: "UNAUTHORIZED",
      details: { reason },
    });
  });

  it.each(bad)(
    "refuses a %s token with 401 UNAUTHORIZED in the v2 shape naming the reason",
    async (name, make, reason) => {
      const res = await v2(make());
      expect(res.status).toBe(401);
      expect(res.headers.get("www-authenticate")).toBe(challenge(name, reason));
      expect(await res.json()).toEqual({
        error: { code: "UNAUTHORIZED", message: "Authentication required", details: { reason } },
        meta: { timestamp: expect.any(String), request_id: expect.any(String) },
      });
    },
  );

  it("accepts a token that lives 24 hours, the default maximum", async () => {
    expect((await v2(jwt.sign(claims, TEST_SECRET, { algorithm: "HS256", expiresIn: "24h" }))).status).toBe(200);
  });

  it("takes the maximum lifetime from OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS", async () => {
    const short = await startTestRuntime({ OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS: "3600" });
    try {
      const call = (expiresIn: "1h" | "2h") =>
        short.call("GET", "/v2/patients", { token: jwt.sign(claims, TEST_SECRET, { algorithm: "HS256", expiresIn }) });
      expect((await call("1h")).status).toBe(200);
      const refused = await call("2h");
      expect(refused.status).toBe(401);
      expect((await refused.json()).error.details.reason).toBe("token lifetime exceeds the maximum of 3600 seconds");
    } finally {
      await short.stop();
    }
  });

  it("answers a 40 KB token, more than the server's 32 KiB of headers, with 401 in the contract's shape", async () => {
    const token = jwt.sign({ ...claims, padding: "x".repeat(30_000) }, TEST_SECRET, {
      algorithm: "HS256",
      expiresIn: "5m",
    });
    expect(token.length).toBeGreaterThan(40_000);
    const reason = "request headers exceed 32768 bytes (a token may have at most 16384 characters)";
    const one = await v1(token);
    expect(one.status).toBe(401);
    expect(one.headers.get("www-authenticate")).toBe(
      `Bearer realm="openpractice", error="invalid_token", error_description="${reason}"`,
    );
    expect(await one.json()).toEqual({
      code: 4010,
      data: null,
      message: "Authentication required",
      error_code: "UNAUTHORIZED",
      details: { reason },
    });
    const two = await v2(token);
    expect(two.status).toBe(401);
    expect(two.headers.get("www-authenticate")).toBe(
      `Bearer realm="openpractice", error="invalid_token", error_description="${reason}"`,
    );
    expect(await two.json()).toEqual({
      error: { code: "UNAUTHORIZED", message: "Authentication required", details: { reason } },
      meta: { timestamp: expect.any(String), request_id: expect.stringMatching(/^req_/) },
    });
    // The server still answers on new connections.
    expect((await v2(await rt.token())).status).toBe(200);
  });

  it("answers a valid token without the scope with 403 and error=insufficient_scope, on v1 and v2", async () => {
    const token = jwt.sign({ ...claims, scope: "profile" }, TEST_SECRET, { algorithm: "HS256", expiresIn: "5m" });
    for (const res of [await v1(token), await v2(token)]) {
      expect(res.status).toBe(403);
      expect(res.headers.get("www-authenticate")).toMatch(
        /^Bearer realm="openpractice", error="insufficient_scope", error_description="This operation needs the [a-z: ]+ scope"$/,
      );
    }
  });

  it("with an identity provider and no explicit secret, has no HS256 secret at all and refuses HS256 tokens", async () => {
    const jwksOnly = await startTestRuntime({
      OPENPRACTICE_JWT_SECRET: "",
      OPENPRACTICE_JWKS_URL: `http://127.0.0.1:${(jwks.address() as AddressInfo).port}/jwks`,
      OPENPRACTICE_JWT_ISSUER: ISSUER,
      OPENPRACTICE_JWT_AUDIENCE: AUDIENCE,
    });
    try {
      expect(existsSync(join(jwksOnly.dataDir, "jwt-secret"))).toBe(false);
      const hs = jwt.sign(claims, TEST_SECRET, { algorithm: "HS256", expiresIn: "5m" });
      const refused = await jwksOnly.call("GET", "/v2/patients", { token: hs });
      expect(refused.status).toBe(401);
      expect((await refused.json()).error.details.reason).toBe("token uses an unsupported algorithm");
      const rs = jwt.sign(claims, rsa.privateKey, { algorithm: "RS256", keyid: "rsa-1", expiresIn: "5m" });
      expect((await jwksOnly.call("GET", "/v2/patients", { token: rs })).status).toBe(200);
    } finally {
      await jwksOnly.stop();
    }
  });

  it("refuses a non-Bearer scheme", async () => {
    const res = await rt.call("GET", "/v2/patients", {
      token: null,
      headers: { authorization: `Basic ${Buffer.from("a:b").toString("base64")}` },
    });
    expect(res.status).toBe(401);
    // Another scheme carries no bearer token: the challenge names no error (RFC 6750 section 3.1).
    expect(res.headers.get("www-authenticate")).toBe('Bearer realm="openpractice"');
    expect((await res.json()).error.details.reason).toBe("Authorization header must be 'Bearer <token>'");
  });
});
