import { signAccessToken } from "@openpractice/runtime";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { makeTempDir } from "../support/temp-dir.js";
import { runCli, startServe, type ServeProcess } from "./cli-process.js";

const SAMPLE = fileURLToPath(new URL("../fixtures/payers-sample.csv", import.meta.url));
const SECRET = "payers-import-secret-0123456789-abcdefghij";

describe("openpractice import payers", () => {
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

  it("loads the registry idempotently; every organisation finds the payers; an admin adds its own", async () => {
    temp = makeTempDir();
    const file = join(temp.dir, "payers.csv");
    copyFileSync(SAMPLE, file);
    const env = { OPENPRACTICE_JWT_SECRET: SECRET };
    const first = runCli(["import", "payers", file], env, temp.dir);
    expect(first.status, first.stderr).toBe(0);
    expect(JSON.parse(first.stdout)).toEqual({ imported: "payers", created: 7, updated: 0 });
    const again = runCli(["import", "payers", file], env, temp.dir);
    expect(JSON.parse(again.stdout)).toEqual({ imported: "payers", created: 0, updated: 7 });

    serve = await startServe({ PORT: "0", ...env }, temp.dir);
    const call = async (path: string, init: { token: string; body?: unknown }) => {
      const res = await fetch(`${serve!.url}${path}`, {
        method: init.body === undefined ? "GET" : "POST",
        headers: { authorization: `Bearer ${init.token}`, "content-type": "application/json" },
        ...(init.body === undefined ? {} : { body: JSON.stringify(init.body) }),
      });
      return { status: res.status, body: await res.json() };
    };
    const reader = await signAccessToken(SECRET, { organisationId: 2, userId: 1, scope: "payers:read" });
    const all = await call("/v2/payers?per_page=100", { token: reader });
    expect(all.status).toBe(200);
    expect(all.body.data.map((p: { name: string }) => p.name)).toEqual([
      "Acme Workers' Compensation",
      "Aetna",
      "Cigna",
      "Illinois Medicaid",
      "Medicare Part B (Novitas Solutions)",
      "TRICARE West Region",
      "UnitedHealthcare",
    ]);
    expect(all.body.data[1]).toEqual({
      id: expect.any(String),
      payer_id: "60054",
      name: "Aetna",
      type: "commercial",
      eligibility: true,
      medicare_part_b: false,
      source: "registry",
      active: true,
    });
    expect((await call("/v2/payers?search=00430", { token: reader })).body.data[0]).toMatchObject({
      name: "Medicare Part B (Novitas Solutions)",
      medicare_part_b: true,
    });
    const page = await call("/v2/payers?type=commercial&per_page=2&page=2", { token: reader });
    expect(page.body.data.map((p: { name: string }) => p.name)).toEqual(["UnitedHealthcare"]);
    expect(page.body.pagination).toMatchObject({ total_count: 3, total_pages: 2 });

    const admin = await signAccessToken(SECRET, { organisationId: 2, userId: 1, scope: "read admin" });
    const own = await call("/v2/payers", {
      token: admin,
      body: { payer_id: "LOC01", name: "Local Health Plan", type: "commercial" },
    });
    expect(own.status).toBe(201);
    expect(own.body).toMatchObject({
      payer_id: "LOC01",
      source: "organisation",
      eligibility: false,
      medicare_part_b: false,
    });
    // Only a medicare payer can be Part B: named, nothing added.
    const notMedicare = await call("/v2/payers", {
      token: admin,
      body: { payer_id: "LOC02", name: "Local Plan B", type: "commercial", medicare_part_b: true },
    });
    expect(notMedicare.status).toBe(400);
    expect(notMedicare.body.error.details.errors).toEqual([expect.objectContaining({ field: "medicare_part_b" })]);
    expect((await call("/v2/payers?search=LOC02", { token: reader })).body.data).toEqual([]);
    const partB = await call("/v2/payers", {
      token: admin,
      body: { payer_id: "LOC03", name: "Own MAC Part B", type: "medicare", medicare_part_b: true },
    });
    expect(partB.body).toMatchObject({ payer_id: "LOC03", medicare_part_b: true });
    const taken = await call("/v2/payers", {
      token: admin,
      body: { payer_id: "60054", name: "Aetna again", type: "commercial" },
    });
    expect(taken.status).toBe(409);
    expect(taken.body.error).toMatchObject({
      code: "DUPLICATE_PAYER",
      details: { existing_payer_ref: all.body.data[1].id },
    });
    expect(
      (await call("/v2/payers", { token: reader, body: { payer_id: "X1", name: "X", type: "other" } })).status,
    ).toBe(403);
    // Another organisation sees the registry, not organisation 2's own payer.
    const other = await signAccessToken(SECRET, { organisationId: 3, userId: 1, scope: "read" });
    expect((await call("/v2/payers?search=local", { token: other })).body.data).toEqual([]);
    expect((await call(`/v2/payers/${own.body.id}`, { token: other })).status).toBe(404);
  });

  it("names every bad row by its line and writes nothing", async () => {
    temp = makeTempDir();
    const bad = join(temp.dir, "bad.csv");
    writeFileSync(
      bad,
      "payer_id,name,type\n60054,Aetna,commercial\n!!,Broken,commercial\n62308,,hmo\n60054,Aetna twice,commercial\n",
    );
    const r = runCli(["import", "payers", bad], {}, temp.dir);
    expect(r.status).toBe(64);
    expect(r.stderr).toContain("line 3: payerId must be 2 to 20 letters or digits");
    expect(r.stderr).toContain("line 4: name must be 1 to 200 characters");
    expect(r.stderr).toContain("line 4: type must be one of commercial");
    expect(r.stderr).toContain("line 5: payerId repeats row 1's payer id");
    const good = join(temp.dir, "good.csv");
    writeFileSync(good, "payer_id,name,type\n60054,Aetna,commercial\n");
    expect(JSON.parse(runCli(["import", "payers", good], {}, temp.dir).stdout)).toEqual({
      imported: "payers",
      created: 1,
      updated: 0,
    });
  });
});
