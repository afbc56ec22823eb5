import { createServer, type Server } from "node:http";
import { Writable } from "node:stream";
import { createLogger } from "@openpractice/runtime";
import type { AddressInfo } from "node:net";
import { decodeJwt } from "jose";
import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { launchCodeHash, newLaunchCode } from "@openpractice/core";
import { availableEngines, openEngineStorage } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

const insecure = { [oauth.allowInsecureRequests]: true };
const PLAN = { OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }; // the launches count against the plan budget // the servers are plain HTTP on 127.0.0.1

/** What the web app did with one launch URL it was opened at. */
interface WebAppVisit {
  token?: oauth.TokenEndpointResponse;
  error?: { error?: string | undefined; status?: number | undefined; message: string };
}

// App-to-web single sign-on (issue 49, part 3) over HTTP on every engine: the mobile app holds a user's token and
// asks for a launch; a real web app on 127.0.0.1, built on oauth4webapi (an outside OAuth client library), is
// opened at the launch URL, checks state and iss (RFC 9207) and exchanges the code with PKCE at /oauth/token.
for (const engine of availableEngines()) {
  describe(`[${engine}] app-to-web single sign-on`, () => {
    let rt: TestRuntime;
    let web: Server;
    let callbackUrl = "";
    let as: oauth.AuthorizationServer;
    const webClient = { id: "", clientId: "", secret: "" };
    const otherClient = { clientId: "", secret: "" };
    /** The web app's pending sign-ins by state: the verifier it keeps while the browser travels. */
    const pending = new Map<string, string>();
    const visits = new Map<string, WebAppVisit>();
    const ids = { clinic: 0, other: 0 };
    const logLines: string[] = [];
    /** Every code a launch gave in this suite: none may reach a log line. */
    const codesSeen: string[] = [];

    const call = async (method: string, path: string, body?: unknown, token?: string | null) => {
      const res = await rt.call(method, path, {
        ...(body === undefined ? {} : { body }),
        ...(token === undefined ? {} : { token }),
      });
      const text = await res.text();
      return { status: res.status, headers: res.headers, body: text ? JSON.parse(text) : undefined };
    };
    const grants = async () => rt.rawRows("select * from sso_grants order by created_at");
    const appToken = (over: { scope?: string; clinicIds?: number[]; userId?: number } = {}) =>
      rt.token({ userId: 101, name: "Dana Reyes", scope: "patients:read tasks:read appointments:read", ...over });

    /** The mobile app: a verifier kept by the web app (by state), the challenge sent with the launch. */
    async function launch(token: string, over: Record<string, unknown> = {}) {
      const verifier = oauth.generateRandomCodeVerifier();
      const state = oauth.generateRandomState();
      pending.set(state, verifier);
      const res = await call(
        "POST",
        "/apis/sso/launch",
        {
          client_id: webClient.clientId,
          redirect_uri: callbackUrl,
          code_challenge: await oauth.calculatePKCECodeChallenge(verifier),
          code_challenge_method: "S256",
          state,
          ...over,
        },
        token,
      );
      if (res.body?.url) codesSeen.push(new URL(res.body.url).searchParams.get("code") as string);
      return { ...res, state, verifier };
    }

    /** The web app's token request for callback parameters, with its own client or another's. */
    const exchange = (
      params: URLSearchParams,
      verifier: string,
      client = webClient,
      redirectUri = callbackUrl,
    ): Promise<Response> =>
      oauth.authorizationCodeGrantRequest(
        as,
        { client_id: client.clientId },
        oauth.ClientSecretBasic(client.secret),
        params,
        redirectUri,
        verifier,
        insecure,
      );

    /** The callback parameters the web app's library accepts (state and iss checked), for the code in `url`. */
    const callbackParams = (url: string, state: string) =>
      oauth.validateAuthResponse(as, { client_id: webClient.clientId }, new URL(url), state);

    /** Opens the launch URL as the browser would, and answers what the web app did. */
    async function open(url: string, state: string): Promise<WebAppVisit> {
      const res = await fetch(url);
      expect(res.status).toBe(200);
      return visits.get(state) as WebAppVisit;
    }

    beforeAll(async () => {
      // Every log line the runtime writes, at the most talkative level, to look for codes in.
      const sink = new Writable({
        write(chunk, _encoding, done) {
          logLines.push(...String(chunk).split("\n").filter(Boolean));
          done();
        },
      });
      rt = await startTestRuntime(PLAN, { engine, logger: createLogger("trace", sink) });
      // The web app: its callback validates the response (state, iss) and redeems the code once.
      web = createServer((req, res) => {
        void (async () => {
          const current = new URL(req.url ?? "/", callbackUrl);
          const state = current.searchParams.get("state") ?? "";
          const visit: WebAppVisit = {};
          try {
            const params = oauth.validateAuthResponse(as, { client_id: webClient.clientId }, current, state);
            const response = await exchange(params, pending.get(state) ?? "");
            visit.token = await oauth.processAuthorizationCodeResponse(as, { client_id: webClient.clientId }, response);
          } catch (error) {
            const e = error as { error?: string; status?: number; message: string };
            visit.error = { error: e.error, status: e.status, message: e.message };
          }
          visits.set(state, visit);
          res.writeHead(200, { "content-type": "text/plain" }).end("signed in");
        })();
      });
      await new Promise<void>((resolve) => web.listen(0, "127.0.0.1", resolve));
      callbackUrl = `http://127.0.0.1:${(web.address() as AddressInfo).port}/sso/callback`;
      const issuer = new URL(rt.url);
      as = await oauth.processDiscoveryResponse(
        issuer,
        await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
      );
      ids.clinic = Number((await call("POST", "/v2/clinics", { name: "North", time_zone: "America/Chicago" })).body.id);
      ids.other = Number((await call("POST", "/v2/clinics", { name: "South", time_zone: "America/Chicago" })).body.id);
      const admin = await rt.token({ scope: "admin" });
      const created = await call(
        "POST",
        "/v2/api-clients",
        {
          name: "Web EMR",
          scopes: ["patients:read", "patients:write", "tasks:read"],
          redirect_uris: [callbackUrl, "https://emr.example.com/sso/callback"],
        },
        admin,
      );
      expect(created.status).toBe(201);
      expect(created.body.redirect_uris).toEqual([callbackUrl, "https://emr.example.com/sso/callback"]);
      Object.assign(webClient, {
        id: created.body.id,
        clientId: created.body.client_id,
        secret: created.body.client_secret,
      });
      const other = await call(
        "POST",
        "/v2/api-clients",
        {
          name: "Another web app",
          scopes: ["patients:read"],
          redirect_uris: [callbackUrl],
        },
        admin,
      );
      Object.assign(otherClient, { clientId: other.body.client_id, secret: other.body.client_secret });
    });
    afterAll(async () => {
      await new Promise((resolve) => web?.close(resolve));
      await rt?.stop();
    });

    it("launches the web app, which exchanges the code once for a token of the same user; a replay is refused and revokes it", async () => {
      const metadata = as as oauth.AuthorizationServer & Record<string, unknown>;
      expect(metadata.grant_types_supported).toContain("authorization_code");
      expect(metadata.code_challenge_methods_supported).toEqual(["S256"]);

      const app = await appToken({ clinicIds: [ids.clinic] });
      const launched = await launch(app);
      expect(launched.status).toBe(200);
      expect(launched.headers.get("cache-control")).toBe("no-store");
      expect(launched.body.expires_in).toBe(60);
      const url = new URL(launched.body.url);
      expect(`${url.origin}${url.pathname}`).toBe(callbackUrl);
      expect(url.searchParams.get("state")).toBe(launched.state);
      expect(url.searchParams.get("iss")).toBe(rt.url);
      const code = url.searchParams.get("code") as string;
      expect(code).toMatch(/^[A-Za-z0-9_-]{43}$/);

      const visit = await open(launched.body.url, launched.state);
      expect(visit.error).toBeUndefined();
      const token = visit.token as oauth.TokenEndpointResponse;
      // The app token's scopes narrowed to the web client's; its user, organisation and clinic restriction.
      expect(token).toMatchObject({ token_type: "bearer", scope: "patients:read tasks:read", expires_in: 900 });
      const claims = decodeJwt(token.access_token);
      expect(claims).toMatchObject({
        organisation_id: 1,
        user_id: 101,
        name: "Dana Reyes",
        client_id: webClient.clientId,
        clinic_id_list: [ids.clinic],
        sso: true,
        sub: "101",
      });
      expect((claims.exp as number) - (claims.iat as number)).toBe(900);
      const read = await call("GET", "/v2/patients", undefined, token.access_token);
      expect(read.status).toBe(200);
      // Never wider than the app's token: the web client may write patients, the app token may not.
      const write = await call(
        "POST",
        "/v2/patients",
        { first_name: "A", last_name: "B", date_of_birth: "1990-01-01" },
        token.access_token,
      );
      expect(write.status).toBe(403);

      const [row] = await grants();
      expect(row).toMatchObject({ user_id: 101, client_id: webClient.clientId, redirect_uri: callbackUrl });
      expect(row?.used_at).not.toBeNull();
      expect(row?.token_id).toBe(claims.jti);
      expect(JSON.stringify(row)).not.toContain(code); // only the code's hash is kept

      // The replay: the same code again, by the same web app, with the right verifier.
      const replay = await exchange(callbackParams(launched.body.url, launched.state), launched.verifier);
      await expect(
        oauth.processAuthorizationCodeResponse(as, { client_id: webClient.clientId }, replay),
      ).rejects.toMatchObject({ error: "invalid_grant", status: 400 });
      const refused = await call("GET", "/v2/patients", undefined, token.access_token);
      expect(refused.status).toBe(401);
      expect(refused.headers.get("www-authenticate")).toContain("token was revoked");

      // Audited: the launch (the user's, naming the web client), the exchange and the replay; no code anywhere.
      const audit = await call(
        "GET",
        `/v2/audit-events?resource_type=api_client&resource_id=${webClient.id}`,
        undefined,
        await rt.token({ scope: "admin" }),
      );
      const actions = audit.body.data.map((e: { action: string }) => e.action);
      expect(actions).toEqual(expect.arrayContaining(["ssoLaunch", "ssoExchange", "ssoCodeReplayed"]));
      for (const e of audit.body.data.filter((x: { action: string }) => x.action.startsWith("sso")))
        expect(e).toMatchObject({ actor: { user_id: "101", name: "Dana Reyes" } });
      const trail = await rt.rawRows("select * from audit_events");
      expect(JSON.stringify(trail)).not.toContain(code);
    });

    it("refuses launches it will not act on, with RFC 6749's errors, and stores nothing", async () => {
      const app = await appToken();
      const admin = await rt.token({ scope: "admin" });
      const before = (await grants()).length;
      const refusals: Array<[Record<string, unknown>, string, string]> = [
        [{ redirect_uri: "https://evil.example.com/sso/callback" }, "invalid_request", "redirect_uri"],
        [{ redirect_uri: `${callbackUrl}/` }, "invalid_request", "redirect_uri"], // exact match, not a prefix
        [{ client_id: "opc_unknown" }, "invalid_request", "client_id"],
        [{ code_challenge_method: "plain" }, "invalid_request", "code_challenge"],
        [{ code_challenge: "too-short" }, "invalid_request", "code_challenge"],
        [{ state: "tab\there" }, "invalid_request", "state"],
        [{ state: "s".repeat(501) }, "invalid_request", "state"],
      ];
      for (const [over, error, field] of refusals) {
        const res = await launch(app, over);
        expect(res.status, JSON.stringify(over)).toBe(400);
        expect(res.body.error, JSON.stringify(over)).toBe(error);
        expect(res.body.error_description, JSON.stringify(over)).toContain(field);
      }
      // A token of no user, and a token whose scopes the web client holds none of.
      const noUser = await launch(await rt.token({ scope: "patients:read", userId: undefined }));
      expect(noUser.body).toMatchObject({ error: "invalid_request" });
      expect(noUser.body.error_description).toContain("user_id");
      const disjoint = await launch(await appToken({ scope: "appointments:read" }));
      expect(disjoint.body).toMatchObject({ error: "invalid_scope" });
      // No clinic in common: the app token's clinic is not among the web client's.
      const restricted = await call(
        "POST",
        "/v2/api-clients",
        { name: "North desk web", scopes: ["patients:read"], clinic_ids: [ids.clinic], redirect_uris: [callbackUrl] },
        admin,
      );
      const southOnly = await launch(await appToken({ clinicIds: [ids.other] }), {
        client_id: restricted.body.client_id,
      });
      expect(southOnly.body).toMatchObject({ error: "invalid_request" });
      expect(southOnly.body.error_description).toContain("clinic");
      // A revoked web client reads as unknown.
      await call("DELETE", `/v2/api-clients/${restricted.body.id}`, undefined, admin);
      const revoked = await launch(await appToken(), { client_id: restricted.body.client_id });
      expect(revoked.body.error_description).toContain("client_id");
      // Too many redirect URIs, and bad ones on create: 400 naming them, no client made.
      const clientsBefore = Number(await rt.scalar("select count(*) from api_clients"));
      const tooMany = await call(
        "POST",
        "/v2/api-clients",
        {
          name: "Eleven",
          scopes: ["patients:read"],
          redirect_uris: Array.from({ length: 11 }, (_, i) => `https://emr.example.com/${i}`),
        },
        admin,
      );
      expect(tooMany.status).toBe(400);
      expect(tooMany.body.error.details.errors[0].field).toBe("redirect_uris");
      const badOnCreate = await call(
        "POST",
        "/v2/api-clients",
        { name: "Bad", scopes: ["patients:read"], redirect_uris: ["ftp://emr.example.com/cb"] },
        admin,
      );
      expect(badOnCreate.body.error.details.errors.map((e: { field: string }) => e.field)).toEqual(["redirect_uris.0"]);
      expect(Number(await rt.scalar("select count(*) from api_clients"))).toBe(clientsBefore);
      // Another organisation's web client reads as unknown.
      const foreign = await launch(await rt.token({ organisationId: 2, userId: 7, scope: "patients:read" }));
      expect(foreign.body).toMatchObject({ error: "invalid_request" });
      expect(foreign.body.error_description).toContain("client_id");
      // A client cannot register a redirect URI a launch could be misled to: each named, nothing changed.
      const badUris = await call(
        "PATCH",
        `/v2/api-clients/${webClient.id}`,
        { redirect_uris: ["http://emr.example.com/cb", callbackUrl, "https://emr.example.com/cb#top"] },
        admin,
      );
      expect(badUris.status).toBe(400);
      expect(badUris.body.error.details.errors.map((e: { field: string }) => e.field)).toEqual([
        "redirect_uris.0",
        "redirect_uris.2",
      ]);
      const kept = await call("GET", `/v2/api-clients/${webClient.id}`, undefined, admin);
      expect(kept.body.redirect_uris).toEqual([callbackUrl, "https://emr.example.com/sso/callback"]);
      // Without a token: the bearer challenge.
      const anonymous = await call("POST", "/apis/sso/launch", { client_id: webClient.clientId }, null);
      expect(anonymous.status).toBe(401);
      expect((await grants()).length).toBe(before);
    });

    it("refuses a code used late, by another client, with another redirect URI or verifier, and issues nothing", async () => {
      const app = await appToken();
      const launched = await launch(app);
      const params = callbackParams(launched.body.url, launched.state);
      const code = params.get("code") as string;
      const refusedWith = async (response: Response, error: string, status = 400) => {
        const body = await response.clone().json();
        expect(body.error).toBe(error);
        expect(body.error_description).not.toContain(code);
        // A 401 reaches the library as the Basic challenge of RFC 6749 5.2, the rest as the error body.
        if (status === 401) return expect(response.headers.get("www-authenticate")).toMatch(/^Basic /);
        await expect(
          oauth.processAuthorizationCodeResponse(as, { client_id: webClient.clientId }, response),
        ).rejects.toMatchObject({ error, status });
      };
      await refusedWith(await exchange(params, oauth.generateRandomCodeVerifier()), "invalid_grant");
      await refusedWith(await exchange(params, launched.verifier, { ...otherClient, id: "" }), "invalid_grant");
      await refusedWith(
        await exchange(params, launched.verifier, webClient, "https://emr.example.com/sso/callback"),
        "invalid_grant",
      );
      await refusedWith(
        await exchange(params, launched.verifier, { ...webClient, secret: "wrong" }),
        "invalid_client",
        401,
      );
      const forged = new URL(launched.body.url);
      forged.searchParams.set("code", "x".repeat(43));
      await refusedWith(
        await exchange(callbackParams(forged.href, launched.state), launched.verifier),
        "invalid_grant",
      );
      const noVerifier = await fetch(`${rt.url}/oauth/token`, {
        method: "POST",
        headers: { "content-type": "application/x-www-form-urlencoded" },
        body: new URLSearchParams({
          grant_type: "authorization_code",
          code,
          redirect_uri: callbackUrl,
          client_id: webClient.clientId,
          client_secret: webClient.secret,
        }),
      });
      await refusedWith(noVerifier, "invalid_request");
      // None of those used the code: nothing was issued from it.
      const unused = (await grants()).find((g) => g.code_hash === launchCodeHash(code));
      expect(unused).toMatchObject({ used_at: null, token_id: null });

      // Late: a launch stored a minute ago whose code expired a second ago (written through the engine's own store).
      const late = newLaunchCode();
      codesSeen.push(late.code);
      const lateVerifier = oauth.generateRandomCodeVerifier();
      const storage = await openEngineStorage(engine, rt.databaseUrl);
      try {
        await storage.repositories.ssoGrants.insert({
          codeHash: late.codeHash,
          organisationId: 1,
          userId: 101,
          userName: "Dana Reyes",
          launchedByClientId: null,
          clientId: webClient.clientId,
          redirectUri: callbackUrl,
          codeChallenge: await oauth.calculatePKCECodeChallenge(lateVerifier),
          scopes: ["patients:read"],
          clinicIds: [],
          notAfter: null,
          createdAt: new Date(Date.now() - 61_000),
          expiresAt: new Date(Date.now() - 1000),
          usedAt: null,
          tokenId: null,
          tokenExpiresAt: null,
          revokedAt: null,
        });
      } finally {
        await storage.close();
      }
      const lateUrl = new URL(launched.body.url);
      lateUrl.searchParams.set("code", late.code);
      const lateAnswer = await exchange(callbackParams(lateUrl.href, launched.state), lateVerifier);
      await refusedWith(lateAnswer, "invalid_grant");
      const rows = await grants();
      expect(rows.find((g) => g.code_hash === late.codeHash)).toMatchObject({ used_at: null, token_id: null });
      // And the code those attempts left unused still works once, with everything right.
      const ok = await exchange(params, launched.verifier);
      expect(await oauth.processAuthorizationCodeResponse(as, { client_id: webClient.clientId }, ok)).toMatchObject({
        scope: "patients:read tasks:read",
      });
    });

    it("revokes on a replay in any form, as every process sees; audits refused exchanges; caps the token at the app's", async () => {
      // One deployment: the same database and data directory (the token signing keys).
      const second = await startTestRuntime({ ...PLAN, OPENPRACTICE_DATA_DIR: rt.dataDir }, { shareDatabaseOf: rt });
      try {
        const admin = await rt.token({ scope: "admin" });
        const trailOf = async (action: string) =>
          (
            await call("GET", `/v2/audit-events?action=${action}&resource_id=${webClient.id}`, undefined, admin)
          ).body.data.filter((e: { resource_type: string }) => e.resource_type === "api_client");
        // An app token with two minutes left: the web app's token lives two minutes at most, and a long name is kept
        // to 200 characters.
        const app = await rt.token({ userId: 101, name: "N".repeat(300), scope: "patients:read", ttlSeconds: 120 });
        const launched = await launch(app);
        expect(launched.status).toBe(200);
        const params = callbackParams(launched.body.url, launched.state);
        const refusedBefore = (await trailOf("ssoExchangeRefused")).length;
        await exchange(params, oauth.generateRandomCodeVerifier()); // a wrong verifier: refused and audited
        expect((await trailOf("ssoExchangeRefused")).length).toBe(refusedBefore + 1);
        const token = await oauth.processAuthorizationCodeResponse(
          as,
          { client_id: webClient.clientId },
          await exchange(params, launched.verifier),
        );
        expect(token.expires_in).toBeGreaterThan(100);
        expect(token.expires_in).toBeLessThanOrEqual(120);
        expect(decodeJwt(token.access_token).name).toBe("N".repeat(200));
        const onSecond = (t: string) =>
          fetch(`${second.url}/v2/patients`, { headers: { authorization: `Bearer ${t}` } }).then((r) => r.status);
        expect(await onSecond(token.access_token)).toBe(200);

        // A replay by another client of the organisation, without redirect URI or verifier: still a replay.
        const replay = await fetch(`${rt.url}/oauth/token`, {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            authorization: `Basic ${Buffer.from(`${otherClient.clientId}:${otherClient.secret}`).toString("base64")}`,
          },
          body: new URLSearchParams({ grant_type: "authorization_code", code: params.get("code") as string }),
        });
        expect(replay.status).toBe(400);
        expect((await replay.json()).error).toBe("invalid_grant");
        // The second process, which verified and cached the token before, refuses it now.
        expect(await onSecond(token.access_token)).toBe(401);
        const [replayed] = await trailOf("ssoCodeReplayed");
        expect(replayed).toMatchObject({ resource_id: webClient.id, actor: { client_id: otherClient.clientId } });

        // A web token cannot launch again; `scope` is not sent with a code.
        const again = await launch(token.access_token);
        expect(again.status).toBe(401); // revoked already
        const fresh = await launch(await appToken());
        const freshParams = callbackParams(fresh.body.url, fresh.state);
        const withScope = await fetch(`${rt.url}/oauth/token`, {
          method: "POST",
          headers: { "content-type": "application/x-www-form-urlencoded" },
          body: new URLSearchParams({
            grant_type: "authorization_code",
            code: freshParams.get("code") as string,
            redirect_uri: callbackUrl,
            code_verifier: fresh.verifier,
            scope: "patients:read",
            client_id: webClient.clientId,
            client_secret: webClient.secret,
          }),
        });
        expect((await withScope.json()).error).toBe("invalid_request");
        const web = await oauth.processAuthorizationCodeResponse(
          as,
          { client_id: webClient.clientId },
          await exchange(freshParams, fresh.verifier),
        );
        const chained = await launch(web.access_token);
        expect(chained.body).toMatchObject({ error: "invalid_request" });
        expect(chained.body.error_description).toContain("single sign-on");
      } finally {
        await second.stop();
      }
    });

    it("wrote no code to its log", () => {
      expect(codesSeen.length).toBeGreaterThanOrEqual(3);
      expect(logLines.length).toBeGreaterThan(0);
      for (const code of codesSeen) expect(logLines.filter((l) => l.includes(code))).toEqual([]);
    });
  });
}
