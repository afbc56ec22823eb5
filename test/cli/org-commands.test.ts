import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { tokenRequest } from "../support/oauth.js";
import { makeTempDir } from "../support/temp-dir.js";
import { runCli, startServe, type ServeProcess } from "./cli-process.js";

const SECRET = "org-commands-secret-0123456789-abcdefghijk";

describe("openpractice org, platform-client and keys", () => {
  let temp: ReturnType<typeof makeTempDir>;
  let serve: ServeProcess | undefined;
  afterEach(async () => {
    if (serve?.child.exitCode === null) {
      serve.child.kill("SIGTERM");
      await serve.exited;
    }
    serve = undefined;
    temp?.remove();
  });
  const cli = (args: string[]) => runCli(args, { OPENPRACTICE_JWT_SECRET: SECRET }, temp.dir);
  const json = (out: string) =>
    out
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l));

  it("creates, lists, updates and deactivates organisations; the admin client works until deactivation", async () => {
    temp = makeTempDir();
    const created = cli(["org", "create", "--name", "North Clinic", "--timezone", "America/New_York"]);
    expect(created.status, created.stderr).toBe(0);
    const [{ organisation, admin_client }] = json(created.stdout);
    expect(organisation).toMatchObject({
      id: "1",
      name: "North Clinic",
      plan: "free",
      time_zone: "America/New_York",
      active: true,
    });
    const second = json(cli(["org", "create", "--name", "South Clinic", "--plan", "enterprise"]).stdout)[0];
    expect(second.organisation).toMatchObject({ id: "2", plan: "enterprise", time_zone: "UTC" });

    const updated = cli(["org", "update", "1", "--plan", "professional", "--audit-reads", "true"]);
    expect(json(updated.stdout)[0]).toMatchObject({ id: "1", plan: "professional", audit_reads: true });

    serve = await startServe({ PORT: "0", OPENPRACTICE_JWT_SECRET: SECRET }, temp.dir);
    const credentials = { clientId: admin_client.client_id, secret: admin_client.client_secret };
    const granted = await tokenRequest({ url: serve.url }, credentials);
    expect(granted.status).toBe(200);
    const token = (await granted.json()).access_token;
    const own = await fetch(`${serve.url}/v2/organisation`, { headers: { authorization: `Bearer ${token}` } });
    expect((await own.json()).plan).toBe("professional");

    const off = cli(["org", "deactivate", "1"]);
    expect(json(off.stdout)[0]).toMatchObject({ id: "1", active: false, deactivated_at: expect.any(String) });
    expect((await tokenRequest({ url: serve.url }, credentials)).status).toBe(401);
    const listed = json(cli(["org", "list", "--status", "deactivated"]).stdout);
    expect(listed.map((o) => o.id)).toEqual(["1"]);
    expect(json(cli(["org", "list"]).stdout).map((o) => o.id)).toEqual(["1", "2"]);
  });

  it("names the mistake and exits 64", () => {
    temp = makeTempDir();
    for (const [args, message] of [
      [["org", "create"], "org create needs --name"],
      [["org", "create", "--name", "X", "--plan", "gold"], "--plan must be one of free, professional, enterprise"],
      [["org", "create", "--name", "X", "--timezone", "Mars/Base"], "timeZone must be an IANA time zone"],
      [["org", "update", "abc", "--name", "Y"], "give the organisation id"],
      [["org", "update", "1"], "org update needs at least one of"],
      [["org", "update", "99", "--name", "Y"], "ORGANISATION_NOT_FOUND"],
      [["org", "frobnicate"], "org needs: create | list"],
    ] as const) {
      const r = cli([...args]);
      expect(r.status, args.join(" ")).toBe(64);
      expect(r.stderr, args.join(" ")).toContain(message);
    }
  });

  it("keys rotate: a new key signs, the old one stays published; platform clients get platform tokens", async () => {
    temp = makeTempDir();
    const platform = cli(["platform-client", "create", "--name", "Vendor ops"]);
    expect(platform.status, platform.stderr).toBe(0);
    const client = json(platform.stdout)[0];
    expect(client).toMatchObject({ scopes: ["platform:admin"], client_secret: expect.any(String) });

    serve = await startServe({ PORT: "0", OPENPRACTICE_JWT_SECRET: SECRET }, temp.dir);
    const file = join(temp.dir, "data", "token-signing-keys.json");
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const first = JSON.parse(readFileSync(file, "utf8")).keys[0].kid;
    const token = (
      await (
        await tokenRequest({ url: serve.url }, { clientId: client.client_id, secret: client.client_secret })
      ).json()
    ).access_token;
    const headers = { authorization: `Bearer ${token}` };
    expect((await fetch(`${serve.url}/v2/organisations`, { headers })).status).toBe(200);
    serve.child.kill("SIGTERM");
    await serve.exited;

    const rotated = cli(["keys", "rotate"]);
    expect(rotated.status, rotated.stderr).toBe(0);
    const result = json(rotated.stdout)[0];
    expect(result).toMatchObject({ kept: [first], dropped: [] });
    serve = await startServe({ PORT: "0", OPENPRACTICE_JWT_SECRET: SECRET }, temp.dir);
    const jwks = await (await fetch(`${serve.url}/.well-known/jwks.json`)).json();
    expect(jwks.keys.map((k: { kid: string }) => k.kid)).toEqual([result.signing, first]);
    // The token signed with the old key still verifies; a new one is signed with the new key.
    expect((await fetch(`${serve.url}/v2/organisations`, { headers })).status).toBe(200);
    const fresh = (
      await (
        await tokenRequest({ url: serve.url }, { clientId: client.client_id, secret: client.client_secret })
      ).json()
    ).access_token;
    expect(JSON.parse(Buffer.from(fresh.split(".")[0], "base64url").toString()).kid).toBe(result.signing);
  });
});
