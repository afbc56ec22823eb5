import { createPublicKey, verify } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { oauthToken, tokenRequest } from "../support/oauth.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

/** The claims of a JWT, read without verifying (the JWKS test verifies). */
const claimsOf = (jwt: string) => JSON.parse(Buffer.from(jwt.split(".")[1] as string, "base64url").toString("utf8"));

// Organisations (platform:admin), API clients and POST /oauth/token on every engine this run has.
for (const engine of availableEngines()) {
  describe(`[${engine}] organisations, API clients and OAuth tokens`, () => {
    let rt: TestRuntime;
    let platform: { clientId: string; secret: string };
    let platformToken: string;
    let org: { id: string; admin: { clientId: string; secret: string; id: string } };
    let adminToken: string;

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      const created = await rt.runtime.practice.apiClients.createPlatformClient("Vendor operations");
      platform = { clientId: created.client.clientId, secret: created.secret };
      platformToken = await oauthToken(rt, platform);
      const res = await rt.call("POST", "/v2/organisations", {
        token: platformToken,
        body: { name: "Lakeside Physical Therapy", plan: "professional", time_zone: "America/Chicago" },
      });
      expect(res.status).toBe(201);
      const body = await res.json();
      org = {
        id: body.id,
        admin: {
          clientId: body.admin_client.client_id,
          secret: body.admin_client.client_secret,
          id: body.admin_client.id,
        },
      };
      adminToken = await oauthToken(rt, org.admin);
    });
    afterAll(async () => {
      await rt.stop();
    });

    const json = async (res: Response) => ({ status: res.status, body: await res.json() });

    it("creates an organisation with its first admin client; the organisation's token reads it at /v2/organisation", async () => {
      expect(claimsOf(adminToken)).toMatchObject({
        organisation_id: Number(org.id),
        scope: "admin read write",
        client_id: org.admin.clientId,
        name: "Administrator",
      });
      const { status, body } = await json(await rt.call("GET", "/v2/organisation", { token: adminToken }));
      expect(status).toBe(200);
      expect(body).toMatchObject({
        id: org.id,
        name: "Lakeside Physical Therapy",
        plan: "professional",
        time_zone: "America/Chicago",
        active: true,
        audit_reads: false,
      });
      const listed = await json(await rt.call("GET", "/v2/organisations?status=active", { token: platformToken }));
      expect(listed.body.data.map((o: { id: string }) => o.id)).toContain(org.id);
    });

    it("refuses a bad organisation naming the field, and an unknown one with 404", async () => {
      const bad = await json(
        await rt.call("POST", "/v2/organisations", {
          token: platformToken,
          body: { name: "X", time_zone: "Mars/Olympus" },
        }),
      );
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.errors[0]).toMatchObject({ field: "time_zone" });
      const missing = await rt.call("GET", "/v2/organisations/999999", { token: platformToken });
      expect(missing.status).toBe(404);
      expect((await missing.json()).error.code).toBe("ORGANISATION_NOT_FOUND");
    });

    it("keeps platform and organisation tokens apart", async () => {
      // A platform token acts on no organisation's records.
      const patients = await json(await rt.call("GET", "/v2/patients", { token: platformToken }));
      expect(patients.status).toBe(403);
      expect(patients.body.error.code).toBe("INSUFFICIENT_PERMISSIONS");
      // An organisation token never reaches the platform routes, even one signed with platform:admin in its scope.
      for (const token of [adminToken, await rt.token({ scope: "platform:admin admin read write" })]) {
        const res = await rt.call("GET", "/v2/organisations", { token });
        expect(res.status).toBe(403);
      }
      // And an organisation's client can never be granted the platform scope.
      const res = await json(
        await rt.call("POST", "/v2/api-clients", {
          token: adminToken,
          body: { name: "Sneaky", scopes: ["platform:admin"] },
        }),
      );
      expect(res.status).toBe(400);
      expect(res.body.error.details.errors[0]).toMatchObject({ field: "scopes.0" });
    });

    it("creates an API client whose secret is shown once and stored only as a scrypt hash", async () => {
      const res = await rt.call("POST", "/v2/api-clients", {
        token: adminToken,
        body: { name: "Front desk app", scopes: ["patients:read", "appointments:write"], user_id: "4501" },
      });
      const body = await res.json();
      expect(res.status).toBe(201);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(res.headers.get("location")).toBe(`/v2/api-clients/${body.id}`);
      expect(body).toMatchObject({
        client_id: expect.stringMatching(/^opc_[A-Za-z0-9_-]{22}$/),
        client_secret: expect.stringMatching(/^ops_[A-Za-z0-9_-]{43}$/),
        scopes: ["patients:read", "appointments:write"],
        user_id: "4501",
        status: "active",
      });
      const read = await json(await rt.call("GET", `/v2/api-clients/${body.id}`, { token: adminToken }));
      expect(read.body).not.toHaveProperty("client_secret");
      const [row] = await rt.rawRows("select secret_hash from api_clients where client_id = ?", body.client_id);
      expect(String(row?.secret_hash)).toMatch(/^scrypt\$32768\$8\$3\$/);
      expect(String(row?.secret_hash)).not.toContain(body.client_secret);
      const token = await oauthToken(rt, { clientId: body.client_id, secret: body.client_secret });
      expect(claimsOf(token)).toMatchObject({ user_id: 4501, scope: "patients:read appointments:write" });
    });

    it("refuses duplicate names (409 with the holder), unknown scopes and clinics (400 naming them)", async () => {
      const first = await json(
        await rt.call("POST", "/v2/api-clients", {
          token: adminToken,
          body: { name: "Billing sync", scopes: ["read"] },
        }),
      );
      const again = await json(
        await rt.call("POST", "/v2/api-clients", {
          token: adminToken,
          body: { name: "billing SYNC ", scopes: ["read"] },
        }),
      );
      expect(again.status).toBe(409);
      expect(again.body.error).toMatchObject({
        code: "DUPLICATE_API_CLIENT",
        details: { existing_api_client_id: first.body.id },
      });
      const typo = await json(
        await rt.call("POST", "/v2/api-clients", {
          token: adminToken,
          body: { name: "Typo", scopes: ["read", "raed"] },
        }),
      );
      expect(typo.status).toBe(400);
      expect(typo.body.error.details.errors).toEqual([expect.objectContaining({ field: "scopes.1", value: "raed" })]);
      const clinic = await json(
        await rt.call("POST", "/v2/api-clients", {
          token: adminToken,
          body: { name: "Clinic app", scopes: ["read"], clinic_ids: ["987654"] },
        }),
      );
      expect(clinic.status).toBe(400);
      expect(clinic.body.error.details.errors[0]).toMatchObject({ field: "clinic_ids.0" });
      expect(Number(await rt.scalar("select count(*) from api_clients where name_key = ?", "typo"))).toBe(0);
    });

    it("answers the token endpoint's errors as RFC 6749 section 5.2 says, issuing nothing", async () => {
      const wrong = await tokenRequest(rt, { clientId: org.admin.clientId, secret: "ops_wrong" });
      expect(wrong.status).toBe(401);
      expect(wrong.headers.get("www-authenticate")).toBe('Basic realm="openpractice"');
      expect(wrong.headers.get("cache-control")).toBe("no-store");
      expect(await wrong.json()).toMatchObject({ error: "invalid_client" });
      const grant = await tokenRequest(rt, org.admin, { grantType: "password" });
      expect([grant.status, (await grant.json()).error]).toEqual([400, "unsupported_grant_type"]);
      const scope = await tokenRequest(rt, org.admin, { scope: "read platform:admin" });
      expect([scope.status, (await scope.json()).error]).toEqual([400, "invalid_scope"]);
      const both = await tokenRequest(rt, org.admin, { extra: { client_id: org.admin.clientId } });
      expect([both.status, (await both.json()).error]).toEqual([400, "invalid_request"]);
      const json = await fetch(`${rt.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ grant_type: "client_credentials" }),
      });
      expect([json.status, (await json.json()).error]).toEqual([400, "invalid_request"]);
    });

    it("issues with client_secret_post too, narrows the scope, and a narrowed token is refused a write", async () => {
      const res = await tokenRequest(rt, org.admin, { method: "post", scope: "read" });
      const body = await res.json();
      expect(res.status).toBe(200);
      expect(res.headers.get("cache-control")).toBe("no-store");
      expect(body).toMatchObject({ token_type: "Bearer", expires_in: 3600, scope: "read" });
      const write = await rt.call("POST", "/v2/staff", {
        token: body.access_token,
        body: { first_name: "A", last_name: "B", email: "a.b@clinic.test", roles: ["front_desk"] },
      });
      expect(write.status).toBe(403);
      expect((await rt.call("GET", "/v2/staff", { token: body.access_token })).status).toBe(200);
    });

    it("publishes the signing key at /.well-known/jwks.json; a token verifies with node:crypto alone", async () => {
      const res = await fetch(`${rt.url}/.well-known/jwks.json`);
      const { keys } = await res.json();
      expect(keys).toHaveLength(1);
      expect(keys[0]).toMatchObject({ kty: "EC", crv: "P-256", alg: "ES256", use: "sig" });
      expect(keys[0]).not.toHaveProperty("d");
      const [header, payload, signature] = adminToken.split(".") as [string, string, string];
      expect(JSON.parse(Buffer.from(header, "base64url").toString())).toMatchObject({ alg: "ES256", kid: keys[0].kid });
      const key = createPublicKey({ key: keys[0], format: "jwk" });
      const valid = verify(
        "sha256",
        Buffer.from(`${header}.${payload}`),
        { key, dsaEncoding: "ieee-p1363" },
        Buffer.from(signature, "base64url"),
      );
      expect(valid).toBe(true);
    });

    it("rotates a secret with a grace period, and without one the old secret stops at once", async () => {
      const made = await json(
        await rt.call("POST", "/v2/api-clients", { token: adminToken, body: { name: "Rotating", scopes: ["read"] } }),
      );
      const old = { clientId: made.body.client_id, secret: made.body.client_secret };
      const rotated = await json(
        await rt.call("POST", `/v2/api-clients/${made.body.id}/rotate-secret`, { token: adminToken }),
      );
      expect(rotated.status).toBe(200);
      expect(Date.parse(rotated.body.previous_secret_expires_at) - Date.now()).toBeGreaterThan(23 * 3600 * 1000);
      const fresh = { clientId: old.clientId, secret: rotated.body.client_secret };
      expect((await tokenRequest(rt, old)).status).toBe(200);
      expect((await tokenRequest(rt, fresh)).status).toBe(200);
      const again = await json(
        await rt.call("POST", `/v2/api-clients/${made.body.id}/rotate-secret`, {
          token: adminToken,
          body: { grace_period_seconds: 0 },
        }),
      );
      expect((await tokenRequest(rt, old)).status).toBe(401);
      expect((await tokenRequest(rt, fresh)).status).toBe(401);
      expect((await tokenRequest(rt, { clientId: old.clientId, secret: again.body.client_secret })).status).toBe(200);
      const bad = await json(
        await rt.call("POST", `/v2/api-clients/${made.body.id}/rotate-secret`, {
          token: adminToken,
          body: { grace_period_seconds: 8 * 24 * 3600 },
        }),
      );
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.errors[0]).toMatchObject({ field: "grace_period_seconds" });
    });

    it("revokes a client: its token requests fail, the record stays", async () => {
      const made = await json(
        await rt.call("POST", "/v2/api-clients", { token: adminToken, body: { name: "Old kiosk", scopes: ["read"] } }),
      );
      const revoked = await json(await rt.call("DELETE", `/v2/api-clients/${made.body.id}`, { token: adminToken }));
      expect(revoked.body).toMatchObject({ status: "revoked", revoked_at: expect.any(String) });
      const res = await tokenRequest(rt, { clientId: made.body.client_id, secret: made.body.client_secret });
      expect(res.status).toBe(401);
      expect(await res.json()).toMatchObject({ error: "invalid_client", error_description: "the client is revoked" });
      const listed = await json(await rt.call("GET", "/v2/api-clients?status=revoked", { token: adminToken }));
      expect(listed.body.data.map((c: { id: string }) => c.id)).toContain(made.body.id);
    });

    it("stops guessing: after 10 failures in a minute even the right secret is refused with 429", async () => {
      const made = await json(
        await rt.call("POST", "/v2/api-clients", { token: adminToken, body: { name: "Guessed", scopes: ["read"] } }),
      );
      const target = { clientId: made.body.client_id, secret: made.body.client_secret };
      // Failures are counted per minute: start early in one, so all eleven attempts fall into it.
      const second = new Date().getSeconds();
      if (second > 45) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
      for (let i = 0; i < 10; i++)
        expect((await tokenRequest(rt, { clientId: target.clientId, secret: `ops_guess${i}` })).status).toBe(401);
      const blocked = await tokenRequest(rt, target);
      expect(blocked.status).toBe(429);
      expect(Number(blocked.headers.get("retry-after"))).toBeGreaterThan(0);
      // Another client from the same address is still served (the address allows 30 failures).
      expect((await tokenRequest(rt, org.admin)).status).toBe(200);
    });

    it("keeps each organisation's clients its own: another organisation's admin gets 404 for every operation", async () => {
      const made = await json(
        await rt.call("POST", "/v2/api-clients", { token: adminToken, body: { name: "Private", scopes: ["read"] } }),
      );
      const other = await rt.token({ organisationId: 999, scope: "admin read write" });
      for (const [method, path, body] of [
        ["GET", `/v2/api-clients/${made.body.id}`, undefined],
        ["PATCH", `/v2/api-clients/${made.body.id}`, { name: "Taken over" }],
        ["DELETE", `/v2/api-clients/${made.body.id}`, undefined],
        ["POST", `/v2/api-clients/${made.body.id}/rotate-secret`, {}],
      ] as const) {
        const res = await json(await rt.call(method, path, { token: other, ...(body ? { body } : {}) }));
        expect(res.status, `${method} ${path}`).toBe(404);
        expect(res.body.error.code).toBe("API_CLIENT_NOT_FOUND");
      }
      const listed = await json(await rt.call("GET", "/v2/api-clients?status=all", { token: other }));
      expect(listed.body.data).toEqual([]);
      const still = await json(await rt.call("GET", `/v2/api-clients/${made.body.id}`, { token: adminToken }));
      expect(still.body).toMatchObject({ name: "Private", status: "active" });
      // Only administrators manage clients.
      expect(
        (
          await rt.call("GET", "/v2/api-clients", {
            token: await rt.token({ organisationId: Number(org.id), scope: "read write" }),
          })
        ).status,
      ).toBe(403);
    });

    it("deactivating an organisation refuses its tokens and its clients at once", async () => {
      const made = await json(
        await rt.call("POST", "/v2/organisations", { token: platformToken, body: { name: "Short lived" } }),
      );
      const client = { clientId: made.body.admin_client.client_id, secret: made.body.admin_client.client_secret };
      const token = await oauthToken(rt, client);
      expect((await rt.call("GET", "/v2/organisation", { token })).status).toBe(200);
      const off = await json(
        await rt.call("PATCH", `/v2/organisations/${made.body.id}`, { token: platformToken, body: { active: false } }),
      );
      expect(off.body).toMatchObject({ active: false, deactivated_at: expect.any(String) });
      const refused = await json(await rt.call("GET", "/v2/organisation", { token }));
      expect(refused.status).toBe(403);
      expect(refused.body.error.code).toBe("ORGANISATION_DEACTIVATED");
      expect((await tokenRequest(rt, client)).status).toBe(401);
      await rt.call("PATCH", `/v2/organisations/${made.body.id}`, { token: platformToken, body: { active: true } });
      expect((await rt.call("GET", "/v2/organisation", { token })).status).toBe(200);
    });
  });
}

describe("OAuth failures are also limited per caller address", () => {
  let rt: TestRuntime;
  beforeAll(async () => {
    rt = await startTestRuntime();
  });
  afterAll(async () => {
    await rt.stop();
  });

  it("after 30 failures from one address in a minute, a valid client from it is refused with 429 too", async () => {
    const second = new Date().getSeconds();
    if (second > 40) await new Promise((r) => setTimeout(r, (61 - second) * 1000));
    const org = await rt.runtime.practice.organisationAdmin.create({ name: "Address test" });
    const { client, secret } = await rt.runtime.practice.apiClients.createForOrganisation(org.id, {
      name: "Valid",
      scopes: ["read"],
    });
    // Thirty different (unknown) client ids: no single client reaches its own limit of 10.
    for (let i = 0; i < 30; i++)
      expect((await tokenRequest(rt, { clientId: `opc_unknown${i}`, secret: "ops_nothing" })).status).toBe(401);
    const blocked = await tokenRequest(rt, { clientId: client.clientId, secret });
    expect(blocked.status).toBe(429);
    expect(await blocked.json()).toMatchObject({ error: "temporarily_unavailable" });
    // Up to 20 s of waiting for a fresh minute, then 31 scrypt-checked requests: more than the default 30 s when the
    // machine is busy (it timed out once in CI that way, with every request answered correctly).
  }, 90_000);
});
