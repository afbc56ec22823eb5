import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { exportJWK, generateKeyPair, SignJWT } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// Issue 51, part 2: SMART Backend Services. An API client registers public keys (inline or a JWK Set URL served by a
// real local HTTP server) and obtains tokens at POST /oauth/token with private_key_jwt (RFC 7523), built by an outside
// OAuth library (oauth4webapi); the token reads the FHIR facade. Assertions signed with another key, replayed,
// expired, living over five minutes or for another audience are refused with invalid_client and nothing is issued.

type Json = any;
type Keys = Awaited<ReturnType<typeof generateKeyPair>>;

/** A JWK Set server on 127.0.0.1, counting its requests. */
async function jwksServer(jwks: unknown): Promise<{ url: string; hits: () => number; close: () => Promise<void> }> {
  let hits = 0;
  const server: Server = createServer((_req, res) => {
    hits++;
    res.writeHead(200, { "content-type": "application/json" });
    res.end(JSON.stringify(jwks));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/jwks.json`,
    hits: () => hits,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

for (const engine of availableEngines()) {
  describe(`[${engine}] SMART Backend Services`, () => {
    let rt: TestRuntime;
    let admin = "";
    let ec: Keys;
    let rsa: Keys;
    let stranger: Keys;
    let served: Awaited<ReturnType<typeof jwksServer>>;
    const clients = { inline: { id: "", clientId: "" }, remote: { id: "", clientId: "" } };
    let tokenEndpoint = "";

    const publicJwk = async (keys: Keys, kid: string, alg: string) => ({
      ...(await exportJWK(keys.publicKey)),
      kid,
      alg,
      use: "sig",
    });
    const form = (fields: Record<string, string>) =>
      rt.call("POST", "/oauth/token", {
        token: null,
        body: new URLSearchParams(fields).toString(),
        headers: { "content-type": "application/x-www-form-urlencoded" },
      });
    /** A client assertion as SMART asks, with any claim overridden. */
    const assertion = (
      key: Keys,
      clientId: string,
      over: { aud?: string; exp?: number; jti?: string; alg?: string; kid?: string } = {},
    ) => {
      const now = Math.floor(Date.now() / 1000);
      return new SignJWT({ jti: over.jti ?? crypto.randomUUID() })
        .setProtectedHeader({ alg: over.alg ?? "ES384", kid: over.kid ?? "ec-1", typ: "JWT" })
        .setIssuer(clientId)
        .setSubject(clientId)
        .setAudience(over.aud ?? tokenEndpoint)
        .setIssuedAt(now)
        .setExpirationTime(over.exp ?? now + 240)
        .sign(key.privateKey);
    };
    const tokenWith = (clientAssertion: string, scope = "system/Patient.rs") =>
      form({
        grant_type: "client_credentials",
        scope,
        client_assertion_type: "urn:ietf:params:oauth:client-assertion-type:jwt-bearer",
        client_assertion: clientAssertion,
      });

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      admin = await rt.token({ scope: "admin read write" });
      tokenEndpoint = `${rt.url}/oauth/token`;
      ec = await generateKeyPair("ES384", { extractable: true });
      rsa = await generateKeyPair("RS384", { extractable: true, modulusLength: 2048 });
      stranger = await generateKeyPair("ES384", { extractable: true });
      served = await jwksServer({ keys: [await publicJwk(rsa, "rsa-1", "RS384")] });
      const create = async (body: Record<string, unknown>) => {
        const res = await rt.call("POST", "/v2/api-clients", { token: admin, body });
        const json = await res.json();
        expect(res.status, JSON.stringify(json)).toBe(201);
        return { id: json.id as string, clientId: json.client_id as string };
      };
      clients.inline = await create({
        name: "Payer analytics (inline keys)",
        scopes: ["system/Patient.rs", "system/*.rs"],
        jwks: { keys: [await publicJwk(ec, "ec-1", "ES384")] },
      });
      clients.remote = await create({
        name: "Population health (JWK Set URL)",
        scopes: ["system/Patient.rs"],
        jwks_uri: served.url,
      });
      await rt.call("POST", "/v2/patients", {
        token: admin,
        body: { first_name: "Ruth", last_name: "Nunez", date_of_birth: "1950-03-03" },
      });
    });
    afterAll(async () => {
      await served?.close();
      await rt?.stop();
    });

    it("describes itself at /.well-known/smart-configuration and in the CapabilityStatement", async () => {
      const res = await rt.call("GET", "/.well-known/smart-configuration", { token: null });
      const config = await res.json();
      expect(config).toMatchObject({
        token_endpoint: tokenEndpoint,
        grant_types_supported: ["client_credentials"],
        token_endpoint_auth_methods_supported: expect.arrayContaining(["private_key_jwt"]),
        token_endpoint_auth_signing_alg_values_supported: ["ES384", "RS384"],
        capabilities: expect.arrayContaining(["client-confidential-asymmetric", "permission-v2"]),
      });
      expect(config.scopes_supported).toEqual(expect.arrayContaining(["system/Patient.rs", "system/*.rs"]));
      const meta = await (await rt.call("GET", "/fhir/R4/metadata", { token: null })).json();
      expect(meta.rest[0].security.service[0].coding[0].code).toBe("SMART-on-FHIR");
      expect(meta.rest[0].security.extension[0].extension).toEqual([{ url: "token", valueUri: tokenEndpoint }]);
    });

    it("issues a token to a client authenticating with private_key_jwt through oauth4webapi, which reads FHIR", async () => {
      const as: oauth.AuthorizationServer = { issuer: rt.url, token_endpoint: tokenEndpoint };
      const client: oauth.Client = { client_id: clients.inline.clientId };
      // SMART Backend Services asks the assertion's aud to be the token endpoint's URL.
      const auth = oauth.PrivateKeyJwt(
        { key: ec.privateKey, kid: "ec-1" },
        {
          [oauth.modifyAssertion]: (_header, payload) => {
            payload.aud = tokenEndpoint;
          },
        },
      );
      const response = await oauth.clientCredentialsGrantRequest(
        as,
        client,
        auth,
        new URLSearchParams({ scope: "system/Patient.rs" }),
        { [oauth.allowInsecureRequests]: true },
      );
      const result = await oauth.processClientCredentialsResponse(as, client, response);
      expect(result.token_type).toBe("bearer");
      expect(result.scope).toBe("system/Patient.rs");
      const patients = await rt.call("GET", "/fhir/R4/Patient", { token: result.access_token });
      expect(patients.status).toBe(200);
      expect((await patients.json()).entry).toHaveLength(1);
      // The scope reads Patient only.
      expect((await rt.call("GET", "/fhir/R4/Location", { token: result.access_token })).status).toBe(403);
    });

    it("fetches a client's JWK Set from its URL (RS384)", async () => {
      const before = served.hits();
      const res = await tokenWith(await assertion(rsa, clients.remote.clientId, { alg: "RS384", kid: "rsa-1" }));
      const body = await res.json();
      expect(res.status, JSON.stringify(body)).toBe(200);
      expect(body.scope).toBe("system/Patient.rs");
      expect(served.hits()).toBeGreaterThan(before);
    });

    it("refuses assertions signed by another key, replayed, expired, living too long or for another audience", async () => {
      const id = clients.inline.clientId;
      const refusals: Array<[string, Promise<string>]> = [
        ["a key the client did not register", assertion(stranger, id)],
        ["an expired one", assertion(ec, id, { exp: Math.floor(Date.now() / 1000) - 60 })],
        ["ten minutes ahead", assertion(ec, id, { exp: Math.floor(Date.now() / 1000) + 600 })],
        ["another audience", assertion(ec, id, { aud: rt.url })],
        ["another client's iss", assertion(ec, clients.remote.clientId)],
      ];
      for (const [why, signed] of refusals) {
        const res = await tokenWith(await signed);
        const body = await res.json();
        expect(res.status, why).toBe(401);
        expect(body.error, why).toBe("invalid_client");
        expect(body.access_token, why).toBeUndefined();
      }
      // A good assertion works once; the same jti again is a replay.
      const once = await assertion(ec, id, { jti: "the-one-jti" });
      expect((await tokenWith(once)).status).toBe(200);
      const replay = await tokenWith(once);
      expect(replay.status).toBe(401);
      expect((await replay.json()).error_description).toContain("used before");
      // A scope the client was not granted: invalid_scope.
      const wider = await tokenWith(await assertion(ec, id), "system/Patient.rs admin");
      expect((await wider.json()).error).toBe("invalid_scope");
      // Not a JWT, or a wrong assertion type: named.
      expect((await (await tokenWith("not-a-jwt")).json()).error).toBe("invalid_client");
      const wrongType = await form({
        grant_type: "client_credentials",
        client_assertion_type: "urn:example:other",
        client_assertion: await assertion(ec, id),
      });
      expect((await wrongType.json()).error).toBe("invalid_request");
    });

    it("refuses keys a client may not register, naming the field; nothing is written", async () => {
      const privateJwk = await exportJWK(ec.privateKey);
      const p256 = await exportJWK((await generateKeyPair("ES256", { extractable: true })).publicKey);
      for (const [body, field] of [
        [{ jwks: { keys: [privateJwk] } }, "jwks.keys.0"],
        [{ jwks: { keys: [p256] } }, "jwks.keys.0"],
        [{ jwks: { keys: [await publicJwk(ec, "x", "ES384")] }, jwks_uri: served.url }, "jwks_uri"],
        [{ jwks_uri: "http://clinic.example/jwks.json" }, "jwks_uri"],
      ] as const) {
        const res = await rt.call("POST", "/v2/api-clients", {
          token: admin,
          body: { name: `Refused ${field} ${Math.random()}`, scopes: ["system/Patient.rs"], ...body },
        });
        const json: Json = await res.json();
        expect(res.status, JSON.stringify(json)).toBe(400);
        expect(json.error.details.errors.map((e: Json) => e.field)).toContain(field);
      }
      const listed = await (await rt.call("GET", "/v2/api-clients?per_page=100", { token: admin })).json();
      expect(listed.data.filter((c: Json) => c.name.startsWith("Refused"))).toEqual([]);
      // The registered keys are shown (public members only) and can be replaced by a URL.
      const shown = await (await rt.call("GET", `/v2/api-clients/${clients.inline.id}`, { token: admin })).json();
      expect(shown.jwks.keys[0]).toMatchObject({ kty: "EC", crv: "P-384", kid: "ec-1" });
      expect(shown.jwks.keys[0].d).toBeUndefined();
      expect(shown.jwks_uri).toBeNull();
    });
  });
}
