import { existsSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import jwt from "jsonwebtoken";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../support/temp-dir.js";
import { runCli, startServe, type ServeProcess } from "./cli-process.js";

/** An identity provider's keys, and the issuer and audience its tokens must name. */
const IDENTITY_PROVIDER = {
  OPENPRACTICE_JWKS_URL: "https://idp.example/.well-known/jwks.json",
  OPENPRACTICE_JWT_ISSUER: "https://idp.example/",
  OPENPRACTICE_JWT_AUDIENCE: "https://api.clinic.example",
};

let serve: ServeProcess | undefined;
let temp: ReturnType<typeof makeTempDir> | undefined;
afterEach(async () => {
  if (serve && serve.child.exitCode === null) {
    serve.child.kill("SIGTERM");
    await serve.exited;
  }
  serve = undefined;
  temp?.remove();
});

describe("openpractice token and seed", () => {
  it("token prints an HS256 token with the claims; with no secret configured, a secret is generated and shared with serve", async () => {
    temp = makeTempDir();
    const r = runCli(
      ["token", "--org", "1", "--user", "10", "--scope", "read write", "--clinics", "1,2", "--roles", "provider"],
      {},
      temp.dir,
    );
    expect(r.status).toBe(0);
    const secretFile = join(temp.dir, "data", "jwt-secret");
    expect(statSync(secretFile).mode & 0o777).toBe(0o600);
    const secret = readFileSync(secretFile, "utf8").trim();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    const claims = jwt.verify(r.stdout.trim(), secret, { algorithms: ["HS256"] }) as Record<string, unknown>;
    expect(claims).toMatchObject({
      organisation_id: 1,
      user_id: 10,
      scope: "read write",
      clinic_id_list: [1, 2],
      roles: ["provider"],
    });
    expect(Number(claims.exp) - Number(claims.iat)).toBe(12 * 3600);

    serve = await startServe({ PORT: "0" }, temp.dir);
    const res = await fetch(`${serve.url}/v2/patients`, { headers: { authorization: `Bearer ${r.stdout.trim()}` } });
    expect(res.status).toBe(200);
    expect(readFileSync(secretFile, "utf8").trim()).toBe(secret);
    expect(existsSync(join(temp.dir, "data", "openpractice.db"))).toBe(true);
  });

  it("with an identity provider's JWKS URL and no secret, token refuses (exit 78) and no secret file appears", () => {
    temp = makeTempDir();
    const r = runCli(["token", "--org", "1"], IDENTITY_PROVIDER, temp.dir);
    expect(r.status).toBe(78);
    expect(r.stdout).toBe("");
    expect(r.stderr.trim()).toBe(
      "openpractice: configuration error: OPENPRACTICE_JWKS_URL: is set, so the server accepts only tokens of the identity provider (get one there) or, when OPENPRACTICE_JWT_SECRET is set as well, HS256 tokens signed with that secret",
    );
    expect(existsSync(join(temp.dir, "data", "jwt-secret"))).toBe(false);
  });

  it("with a JWKS URL and an explicit secret, token signs with that secret, which serve accepts", async () => {
    temp = makeTempDir();
    const env = {
      ...IDENTITY_PROVIDER,
      OPENPRACTICE_JWKS_URL: "http://127.0.0.1:9/jwks.json",
      OPENPRACTICE_JWT_SECRET: "explicit-secret-0123456789-abcdefghijkl",
    };
    const r = runCli(["token", "--org", "1"], env, temp.dir);
    expect(r.status).toBe(0);
    // The token names this API as its audience, as the identity provider's tokens do.
    expect(jwt.verify(r.stdout.trim(), env.OPENPRACTICE_JWT_SECRET, { algorithms: ["HS256"] })).toMatchObject({
      organisation_id: 1,
      aud: "https://api.clinic.example",
    });
    expect(existsSync(join(temp.dir, "data", "jwt-secret"))).toBe(false);
    serve = await startServe({ PORT: "0", ...env }, temp.dir);
    expect(
      (await fetch(`${serve.url}/v2/patients`, { headers: { authorization: `Bearer ${r.stdout.trim()}` } })).status,
    ).toBe(200);
  });

  it("token refuses a --ttl above the configured maximum token lifetime", () => {
    temp = makeTempDir();
    const over = runCli(["token", "--org", "1", "--ttl", "86401"], {}, temp.dir);
    expect(over.status).toBe(64);
    expect(over.stderr).toContain("--ttl must be at most 86400 seconds (OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS)");
    const raised = runCli(
      ["token", "--org", "1", "--ttl", "172800"],
      { OPENPRACTICE_JWT_MAX_LIFETIME_SECONDS: "172800" },
      temp.dir,
    );
    expect(raised.status).toBe(0);
  });

  it("seed with a JWKS URL and no secret prints no token and makes no secret", () => {
    temp = makeTempDir();
    const r = runCli(["seed", "--patients", "1"], IDENTITY_PROVIDER, temp.dir);
    expect(r.status).toBe(0);
    const summary = JSON.parse(r.stdout);
    expect(summary.organisation_id).toBe(1);
    expect(summary).not.toHaveProperty("token");
    expect(existsSync(join(temp.dir, "data", "jwt-secret"))).toBe(false);
  });

  it("token needs --org", () => {
    temp = makeTempDir();
    const r = runCli(["token", "--user", "10"], {}, temp.dir);
    expect(r.status).toBe(64);
    expect(r.stderr).toContain("token needs --org");
  });

  it("seed is idempotent and prints the demo organisation with a working token", async () => {
    temp = makeTempDir();
    const first = runCli(["seed"], {}, temp.dir);
    expect(first.status).toBe(0);
    const a = JSON.parse(first.stdout);
    expect(a).toMatchObject({
      organisation_id: 1,
      clinic_ids: [1, 2],
      provider_ids: [101, 102, 103, 104],
      cancellation_reason_keys: expect.arrayContaining(["LATE_CANCELLATION"]),
    });
    expect(a.patient_ids).toHaveLength(50);
    expect(a.appointment_category_ids).toHaveLength(5);
    expect(a.appointment_ids).toHaveLength(12);
    expect(a.billing_codes).toEqual(["97110", "97112", "97140", "97530", "97116", "97161", "97162", "95992"]);

    const second = JSON.parse(runCli(["seed"], {}, temp.dir).stdout);
    expect({ ...second, token: undefined }).toEqual({ ...a, token: undefined });

    const db = new BetterSqlite3(join(temp.dir, "data", "openpractice.db"), { readonly: true });
    const count = (sql: string) => (db.prepare(sql).get() as { n: number }).n;
    expect(count("select count(*) n from patients")).toBe(50);
    expect(count("select count(*) n from outbox where event_type = 'patient.created'")).toBe(50);
    expect(
      count(
        "select count(*) n from providers where supervising_user_id is not null and supervising_user_id <> user_id",
      ),
    ).toBe(4);
    expect(count("select count(*) n from organisation_specializations")).toBe(5);
    expect(count("select count(*) n from cancellation_reasons where cancellation_fee > 0")).toBe(2);
    expect(count("select count(*) n from appointments where status = 'SCHEDULED'")).toBe(12);
    expect(count("select count(*) n from outbox where event_type = 'appointment.created'")).toBe(12);
    db.close();

    const claims = jwt.decode(a.token) as Record<string, unknown>;
    expect(claims).toMatchObject({ organisation_id: 1, user_id: 101, scope: "read write" });
    serve = await startServe({ PORT: "0" }, temp.dir);
    const list = await (
      await fetch(`${serve.url}/v2/patients?per_page=100`, { headers: { authorization: `Bearer ${a.token}` } })
    ).json();
    expect(list.pagination.total_count).toBe(50);
  });
});
