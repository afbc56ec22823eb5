import { createHash } from "node:crypto";
import { type ApiClient, createPractice, DomainError, type Practice, type Principal } from "@openpractice/core";
import { MemoryStorage } from "@openpractice/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";

// RFC 7636 appendix B's verifier and its S256 challenge.
const VERIFIER = "dBjftJeZ4CVP-mB92K27uhbUJU1p1r_wW1gFWFOEjXk";
const CHALLENGE = "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM";
const REDIRECT = "https://emr.example.com/sso/callback";

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (error) {
    if (error instanceof DomainError) return { code: error.code, ...error.details, message: error.message };
    throw error;
  }
  throw new Error("expected a refusal");
};

// Single sign-on's rules over the in-memory store with a clock the test moves: the 60-second code, one redemption
// of two concurrent exchanges (the loser revokes the winner's token), and how scopes and clinics narrow.
describe("app-to-web single sign-on (core)", () => {
  let now = new Date("2026-11-28T09:00:00.000Z");
  const clock = { now: () => now };
  let storage: MemoryStorage;
  let practice: Practice;
  let web: ApiClient;
  const c: number[] = [];
  let app: Principal = {
    organisationId: 1,
    userId: 101,
    name: "Dana Reyes",
    clientId: "opc_app",
    scopes: ["patients:read", "appointments:read", "tasks:read"],
    clinicIds: [],
    roles: [],
  };
  const admin: Principal = { ...app, scopes: ["admin"], clinicIds: [] };
  const launchInput = { codeChallenge: CHALLENGE, codeChallengeMethod: "S256", redirectUri: REDIRECT };
  const codeOf = (url: string) => new URL(url).searchParams.get("code") as string;

  beforeEach(async () => {
    now = new Date("2026-11-28T09:00:00.000Z");
    storage = new MemoryStorage();
    practice = createPractice({ keys: testPracticeKeys(), storage, clock });
    await storage.repositories.organisations.ensure({ id: 1, name: "Org", plan: "free", now });
    c.length = 0;
    for (const name of ["North", "South", "East", "West", "Lake"])
      c.push((await practice.clinics.create(admin, { name, timeZone: "America/Chicago" })).id);
    // The app's token is restricted to the third and fifth clinics, the web client to the fifth and fourth.
    app = { ...app, clinicIds: [c[2] as number, c[4] as number] };
    web = (
      await practice.apiClients.create(admin, {
        name: "Web EMR",
        scopes: ["patients:read", "patients:write", "tasks:read"],
        clinicIds: [c[4] as number, c[3] as number],
        redirectUris: [REDIRECT],
      })
    ).client;
  });

  it("issues a token of the app's user with the common scopes and clinics, and keeps only the code's hash", async () => {
    const launched = await practice.sso.launch(app, { ...launchInput, clientId: web.clientId }, "https://api.test");
    const code = codeOf(launched.url);
    const hash = createHash("sha256").update(code).digest("hex");
    expect(await storage.repositories.ssoGrants.findByCodeHash(hash)).toMatchObject({
      userId: 101,
      launchedByClientId: "opc_app",
      scopes: ["patients:read", "tasks:read"],
      clinicIds: [c[4]],
      expiresAt: new Date("2026-11-28T09:01:00.000Z"),
    });
    const issued = await practice.sso.exchange(web, { code, redirectUri: REDIRECT, codeVerifier: VERIFIER }, "req-1");
    expect(issued).toMatchObject({
      organisationId: 1,
      userId: 101,
      name: "Dana Reyes",
      clientId: web.clientId,
      scopes: ["patients:read", "tasks:read"],
      clinicIds: [c[4]],
      lifetimeSeconds: 900,
    });
    const audit = await practice.audit.list(1, { resourceType: "api_client" });
    expect(audit.events.map((e) => [e.action, e.actorUserId, e.requestId])).toEqual([["ssoExchange", 101, "req-1"]]);
  });

  it("honours the 60 seconds to the millisecond", async () => {
    const input = { ...launchInput, clientId: web.clientId };
    const first = codeOf((await practice.sso.launch(app, input)).url);
    const second = codeOf((await practice.sso.launch(app, input)).url);
    now = new Date("2026-11-28T09:00:59.999Z");
    expect(
      await practice.sso.exchange(web, { code: first, redirectUri: REDIRECT, codeVerifier: VERIFIER }, null),
    ).toMatchObject({ userId: 101 });
    now = new Date("2026-11-28T09:01:00.000Z");
    expect(
      await refusal(practice.sso.exchange(web, { code: second, redirectUri: REDIRECT, codeVerifier: VERIFIER }, null)),
    ).toMatchObject({ code: "INVALID_GRANT", error: "invalid_grant", message: "the code has expired" });
  });

  it("of two concurrent exchanges one wins; the other is a replay and revokes the winner's token", async () => {
    const code = codeOf((await practice.sso.launch(app, { ...launchInput, clientId: web.clientId })).url);
    const exchange = () =>
      practice.sso.exchange(web, { code, redirectUri: REDIRECT, codeVerifier: VERIFIER }, null).then(
        (token) => ({ token }),
        (error: DomainError) => ({ error }),
      );
    const results = await Promise.all([exchange(), exchange()]);
    const won = results.flatMap((r) => ("token" in r ? [r.token] : []));
    const lost = results.flatMap((r) => ("error" in r ? [r.error] : []));
    expect(won).toHaveLength(1);
    expect(lost.map((e) => [e.code, e.details.error])).toEqual([["INVALID_GRANT", "invalid_grant"]]);
    const holder = { ...app, ssoTokenId: won[0]?.tokenId ?? null };
    expect(await practice.sso.isRevoked(holder)).toBe(true);
    expect(await practice.sso.isRevoked(app)).toBe(false);
    const actions = (await practice.audit.list(1, { resourceType: "api_client" })).events.map((e) => e.action);
    expect(actions.sort()).toEqual(["ssoCodeReplayed", "ssoExchange"]);
  });

  it("never widens: a client that lost its scopes since the launch gets nothing; no clinic in common refuses the launch", async () => {
    const elsewhere = { ...app, clinicIds: [c[0] as number, c[1] as number] };
    expect(await refusal(practice.sso.launch(elsewhere, { ...launchInput, clientId: web.clientId }))).toMatchObject({
      code: "SSO_LAUNCH_REFUSED",
      error: "invalid_request",
      field: "client_id",
    });
    // A token of single sign-on cannot launch again (its revocation would not reach what it launched).
    expect(
      await refusal(practice.sso.launch({ ...app, ssoTokenId: "abc" }, { ...launchInput, clientId: web.clientId })),
    ).toMatchObject({ code: "SSO_LAUNCH_REFUSED", field: "authorization" });
    const code = codeOf((await practice.sso.launch(app, { ...launchInput, clientId: web.clientId })).url);
    const narrowed = await practice.apiClients.update(admin, web.id, { scopes: ["patients:write"] });
    expect(
      await refusal(practice.sso.exchange(narrowed, { code, redirectUri: REDIRECT, codeVerifier: VERIFIER }, null)),
    ).toMatchObject({ code: "INVALID_GRANT", message: "the client no longer holds what the launch granted" });
  });

  it("refuses redirect URIs a client may not register, naming each", async () => {
    expect(
      await refusal(
        practice.apiClients.update(admin, web.id, {
          redirectUris: ["http://emr.example.com/cb", "https://emr.example.com/cb#frag", REDIRECT],
        }),
      ),
    ).toMatchObject({
      code: "VALIDATION_FAILED",
      issues: [{ field: "redirectUris.0" }, { field: "redirectUris.1" }],
    });
    expect((await practice.apiClients.get(admin, web.id)).redirectUris).toEqual([REDIRECT]);
  });

  it("purges launches a day after their code expired", async () => {
    await practice.sso.launch(app, { ...launchInput, clientId: web.clientId });
    now = new Date("2026-11-29T09:00:59.000Z");
    expect(await practice.sso.purgeExpired()).toBe(0);
    now = new Date("2026-11-29T09:01:01.000Z");
    expect(await practice.sso.purgeExpired()).toBe(1);
  });
});
