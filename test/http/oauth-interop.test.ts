import * as oauth from "oauth4webapi";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// An outside OAuth client library (oauth4webapi) discovers the server, obtains a token and calls the API with it.
describe("OAuth interoperability with oauth4webapi", () => {
  let rt: TestRuntime;
  let credentials: { clientId: string; secret: string };
  const insecure = { [oauth.allowInsecureRequests]: true }; // the test server is plain HTTP on 127.0.0.1

  beforeAll(async () => {
    rt = await startTestRuntime();
    const org = await rt.runtime.practice.organisationAdmin.create({ name: "Interop clinic" });
    const { client, secret } = await rt.runtime.practice.apiClients.createForOrganisation(org.id, {
      name: "Integration",
      scopes: ["patients:read", "patients:write"],
    });
    credentials = { clientId: client.clientId, secret };
  });
  afterAll(async () => {
    await rt.stop();
  });

  it("discovers the metadata, gets a token with client_secret_basic and reads patients with it", async () => {
    const issuer = new URL(rt.url);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
    );
    expect(as.token_endpoint).toBe(`${rt.url}/oauth/token`);
    const client: oauth.Client = { client_id: credentials.clientId };
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretBasic(credentials.secret),
      new URLSearchParams({ scope: "patients:read" }),
      insecure,
    );
    const token = await oauth.processClientCredentialsResponse(as, client, response);
    expect(token).toMatchObject({ token_type: "bearer", scope: "patients:read", expires_in: 3600 });
    const read = await oauth.protectedResourceRequest(
      token.access_token,
      "GET",
      new URL(`${rt.url}/v2/patients`),
      undefined,
      undefined,
      insecure,
    );
    expect(read.status).toBe(200);
    // A write outside the token's scope: the library reports our RFC 6750 challenge.
    await expect(
      oauth.protectedResourceRequest(
        token.access_token,
        "POST",
        new URL(`${rt.url}/v2/patients`),
        new Headers({ "content-type": "application/json" }),
        JSON.stringify({ first_name: "A", last_name: "B", date_of_birth: "1990-01-01" }),
        insecure,
      ),
    ).rejects.toMatchObject({
      status: 403,
      cause: [
        expect.objectContaining({
          scheme: "bearer",
          parameters: expect.objectContaining({ error: "insufficient_scope" }),
        }),
      ],
    });
  });

  it("surfaces the server's RFC 6749 errors through the library", async () => {
    const issuer = new URL(rt.url);
    const as = await oauth.processDiscoveryResponse(
      issuer,
      await oauth.discoveryRequest(issuer, { algorithm: "oauth2", ...insecure }),
    );
    const client: oauth.Client = { client_id: credentials.clientId };
    const response = await oauth.clientCredentialsGrantRequest(
      as,
      client,
      oauth.ClientSecretPost(credentials.secret),
      new URLSearchParams({ scope: "admin" }),
      insecure,
    );
    await expect(oauth.processClientCredentialsResponse(as, client, response)).rejects.toMatchObject({
      error: "invalid_scope",
      status: 400,
    });
  });
});
