import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT, type CryptoKey, type JWTPayload } from "jose";
import { createJwtAuthenticator } from "@openpractice/http";
import jwt from "jsonwebtoken";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { oauthToken } from "../support/oauth.js";
import { startTestRuntime, TEST_SECRET, type TestRuntime } from "../support/runtime-fixture.js";

// One identity provider tenant serves several applications with the same keys: a token it signed for another
// application (another aud), or a token of another tenant (another iss), must not get in.
const ISSUER = "https://tenant.idp.test/";
const AUDIENCE = "https://api.clinic.test";
const claims = { organisation_id: 1, user_id: 101, scope: "read write" };

let idp: Server;
let privateKey: CryptoKey;

beforeAll(async () => {
  const pair = await generateKeyPair("ES256");
  privateKey = pair.privateKey;
  const jwks = { keys: [{ ...(await exportJWK(pair.publicKey)), kid: "tenant-key", alg: "ES256", use: "sig" }] };
  idp = createServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify(jwks));
  });
  await new Promise<void>((r) => idp.listen(0, "127.0.0.1", r));
});
afterAll(() => {
  idp.close();
});

const now = () => Math.floor(Date.now() / 1000);

/** A token of the provider's tenant key; `payload` overrides the bound defaults (undefined drops a claim). */
function providerToken(payload: Partial<Record<keyof JWTPayload, unknown>> = {}): Promise<string> {
  const body: Record<string, unknown> = { ...claims, iss: ISSUER, aud: AUDIENCE, iat: now(), exp: now() + 300 };
  for (const [k, v] of Object.entries(payload))
    if (v === undefined) delete body[k];
    else body[k] = v;
  return new SignJWT(body).setProtectedHeader({ alg: "ES256", kid: "tenant-key" }).sign(privateKey);
}

for (const engine of availableEngines()) {
  describe(`[${engine}] identity provider tokens are bound to the issuer and audience`, () => {
    let rt: TestRuntime;
    beforeAll(async () => {
      rt = await startTestRuntime(
        {
          OPENPRACTICE_JWKS_URL: `http://127.0.0.1:${(idp.address() as AddressInfo).port}/.well-known/jwks.json`,
          OPENPRACTICE_JWT_ISSUER: ISSUER,
          OPENPRACTICE_JWT_AUDIENCE: `${AUDIENCE},api://openpractice-legacy`,
        },
        { engine },
      );
    });
    afterAll(async () => {
      await rt?.stop();
    });

    const reasonFor = async (token: string) => {
      const res = await rt.call("GET", "/v2/patients", { token });
      return res.status === 200 ? 200 : { status: res.status, reason: (await res.json()).error.details.reason };
    };
    const refusal = (reason: string) => ({ status: 401, reason });

    it("accepts a token naming the issuer and one of the audiences (a string or in an array)", async () => {
      expect(await reasonFor(await providerToken())).toBe(200);
      expect(
        await reasonFor(await providerToken({ aud: ["https://other.app.test", "api://openpractice-legacy"] })),
      ).toBe(200);
    });

    it("ignores an sso claim of the provider's tokens: only this server's own tokens are single sign-on's", async () => {
      // Without a jti an sso token of ours is refused; the provider's passes, not looked up for revocation.
      expect(await reasonFor(await providerToken({ sso: true, jti: undefined }))).toBe(200);
      const launch = await rt.call("POST", "/apis/sso/launch", {
        token: await providerToken({ sso: true }),
        body: { client_id: "opc_none" },
      });
      // Not refused as "a token issued by single sign-on itself": the launch reads the client instead.
      expect((await launch.json()).error_description).toContain("redirect_uri");
    });

    it("refuses a token the same key signed for another application, or without an audience", async () => {
      expect(await reasonFor(await providerToken({ aud: "https://billing.app.test" }))).toEqual(
        refusal("token is for another audience than this API"),
      );
      expect(await reasonFor(await providerToken({ aud: ["https://billing.app.test"] }))).toEqual(
        refusal("token is for another audience than this API"),
      );
      expect(await reasonFor(await providerToken({ aud: undefined }))).toEqual(refusal("token has no aud claim"));
    });

    it("refuses a token of another issuer signed with the same key, or without an issuer", async () => {
      expect(await reasonFor(await providerToken({ iss: "https://other-tenant.idp.test/" }))).toEqual(
        refusal("token was issued by another issuer than the configured identity provider"),
      );
      // The issuer is compared exactly: a missing trailing slash is another issuer.
      expect(await reasonFor(await providerToken({ iss: "https://tenant.idp.test" }))).toEqual(
        refusal("token was issued by another issuer than the configured identity provider"),
      );
      expect(await reasonFor(await providerToken({ iss: undefined }))).toEqual(refusal("token has no iss claim"));
    });

    it("checks exp and nbf with 30 seconds of clock skew: within it accepted, beyond it refused", async () => {
      expect(await reasonFor(await providerToken({ iat: now() - 300, exp: now() - 10 }))).toBe(200);
      expect(await reasonFor(await providerToken({ iat: now() - 300, exp: now() - 45 }))).toEqual(
        refusal("token has expired"),
      );
      expect(await reasonFor(await providerToken({ nbf: now() + 10 }))).toBe(200);
      expect(await reasonFor(await providerToken({ nbf: now() + 45 }))).toEqual(refusal("token is not valid yet"));
      expect(await reasonFor(await providerToken({ exp: undefined }))).toEqual(refusal("token has no exp claim"));
    });

    it("gives our own tokens this API's audience, and refuses one of our keys that names another", async () => {
      const org = await rt.runtime.practice.organisationAdmin.create({ name: `Audience ${engine}` });
      const { client, secret } = await rt.runtime.practice.apiClients.createForOrganisation(org.id, {
        name: "Audience check",
        scopes: ["read"],
      });
      const issued = await oauthToken(rt, { clientId: client.clientId, secret });
      expect(JSON.parse(Buffer.from(issued.split(".")[1] as string, "base64url").toString()).aud).toBe(AUDIENCE);
      expect((await rt.call("GET", "/v2/organisation", { token: issued })).status).toBe(200);
      // HS256 with the runtime's secret: without aud (signed before an audience was configured) accepted, with
      // another aud refused.
      const hs = (extra: object) =>
        jwt.sign({ ...claims, ...extra }, TEST_SECRET, { algorithm: "HS256", expiresIn: "5m" });
      expect(await reasonFor(hs({}))).toBe(200);
      expect(await reasonFor(hs({ aud: AUDIENCE }))).toBe(200);
      expect(await reasonFor(hs({ aud: "https://billing.app.test" }))).toEqual(
        refusal("token is for another audience than this API"),
      );
    });
  });
}

describe("without an issuer and audience", () => {
  it("an embedder's authenticator with a JWKS URL is refused; the runtime skips the check only in development", async () => {
    const url = `http://127.0.0.1:${(idp.address() as AddressInfo).port}/jwks`;
    const needs = /^createJwtAuthenticator: jwksUrl needs issuer \(the identity provider's iss\) and audience/;
    expect(() => createJwtAuthenticator({ jwksUrl: url })).toThrow(needs);
    expect(() => createJwtAuthenticator({ jwksUrl: url, issuer: ISSUER })).toThrow(needs);
    expect(() => createJwtAuthenticator({ jwksUrl: url, audience: [], issuer: ISSUER })).toThrow(needs);
    expect(() => createJwtAuthenticator({ jwksUrl: url, audience: AUDIENCE })).toThrow(needs);
    // (The runtime's refusal to start, exit 78 with one line, is in test/cli/config-errors.test.ts.)
    const unbound = await startTestRuntime({
      OPENPRACTICE_JWKS_URL: url,
      OPENPRACTICE_JWKS_SKIP_ISSUER_AUDIENCE_CHECK: "true",
    });
    try {
      // Development only: any application's token of the tenant gets in.
      const res = await unbound.call("GET", "/v2/patients", {
        token: await providerToken({ aud: "https://billing.app.test", iss: "https://other-tenant.idp.test/" }),
      });
      expect(res.status).toBe(200);
    } finally {
      await unbound.stop();
    }
  });
});
