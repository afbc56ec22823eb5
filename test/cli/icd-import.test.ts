import { signAccessToken } from "@openpractice/runtime";
import BetterSqlite3 from "better-sqlite3";
import { copyFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { describeWithSharedFiles, ICD10CM_DATA } from "../support/shared-data.js";
import { makeTempDir } from "../support/temp-dir.js";
import { runCli, startServe, type ServeProcess } from "./cli-process.js";

const SAMPLE = `${ICD10CM_DATA}icd10cm_order_2026_sample.txt`;
const SECRET = "icd-import-secret-0123456789-abcdefghijkl";

describeWithSharedFiles(import.meta.url, [SAMPLE])("openpractice import icd10cm", () => {
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

  it("loads the real CMS sample idempotently with the year from the file name, and the API finds the codes", async () => {
    temp = makeTempDir();
    const file = join(temp.dir, "icd10cm_order_2026.txt");
    copyFileSync(SAMPLE, file);
    const env = { OPENPRACTICE_JWT_SECRET: SECRET };
    for (let run = 0; run < 2; run++) {
      const r = runCli(["import", "icd10cm", file], env, temp.dir);
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ imported: "icd10cm", year: 2026, codes: 5, billable: 3 });
      // Progress goes to stderr (JSON lines when not on a terminal), ending at 100%.
      const progress = r.stderr
        .trim()
        .split("\n")
        .map((l) => JSON.parse(l));
      expect(progress.at(-1)).toMatchObject({ progress: "import icd10cm", done: 5, total: 5, percent: 100 });
    }
    const db = new BetterSqlite3(join(temp.dir, "data", "openpractice.db"), { readonly: true });
    // The year's rows live under the storage key icd_years names; the second import replaced the first's rows.
    expect(
      db
        .prepare("select count(*) n from icd_codes c join icd_years y on c.year = y.storage_key where y.year = 2026")
        .get(),
    ).toEqual({ n: 5 });
    expect(db.prepare("select count(*) n from icd_codes").get()).toEqual({ n: 5 });
    db.close();

    serve = await startServe({ PORT: "0", ...env }, temp.dir);
    const token = await signAccessToken(SECRET, { organisationId: 1, userId: 1, scope: "read" });
    const search = async (q: string) =>
      (
        await fetch(
          `${serve!.url}/apis/soap-enrichment/v1/bcs/icd/search?q=${encodeURIComponent(q)}&speciality=MSK&rev=ICD10`,
          { headers: { authorization: `Bearer ${token}` } },
        )
      ).json();
    const byCode = await search("A00");
    expect(byCode.data.codes.map((c: { code: string }) => c.code)).toEqual(["A00", "A00.0"]);
    expect(byCode.data.codes[1]).toEqual({
      id: 2,
      code: "A00.0",
      description: "Cholera due to Vibrio cholerae 01, biovar cholerae",
      short_description: "Cholera due to Vibrio cholerae 01, biovar cholerae",
      revision: "ICD10",
      billing_type: "BILLABLE",
      code_set_year: 2026,
    });
    expect(byCode.data.codes[0].billing_type).toBe("NON_BILLABLE");
    expect((await search("supplemental oxygen")).data.codes.map((c: { code: string }) => c.code)).toEqual(["Z99.81"]);
    expect((await search("clostridium enterocolitis")).data.codes.map((c: { code: string }) => c.code)).toEqual([
      "A04.72",
    ]);
  });

  it("refuses a bad line naming it and writes nothing; needs a year", () => {
    temp = makeTempDir();
    const bad = join(temp.dir, "icd10cm_order_2026.txt");
    writeFileSync(
      bad,
      "00001 A00     0 Cholera                                                      Cholera\n0002 A000    1 Broken\n",
    );
    const r = runCli(["import", "icd10cm", bad], {}, temp.dir);
    expect(r.status).toBe(64);
    expect(r.stderr).toContain("line 2: columns 0-4 must be a 5-digit order number");
    const db = new BetterSqlite3(join(temp.dir, "data", "openpractice.db"), { readonly: true });
    expect(db.prepare("select count(*) n from icd_codes").get()).toEqual({ n: 0 });
    db.close();
    const noYear = join(temp.dir, "codes.txt");
    writeFileSync(noYear, "00001 A00     0 Cholera                                                      Cholera\n");
    expect(runCli(["import", "icd10cm", noYear], {}, temp.dir).stderr).toContain("give --year");
    expect(JSON.parse(runCli(["import", "icd10cm", noYear, "--year", "2024"], {}, temp.dir).stdout)).toMatchObject({
      year: 2024,
      codes: 1,
    });
  });
});

describe("openpractice import catalog", () => {
  it("upserts billing codes from a CSV for the organisation, naming bad rows", () => {
    const temp = makeTempDir();
    try {
      const csv = join(temp.dir, "catalog.csv");
      writeFileSync(
        csv,
        'code,description,timed,modifiers,specialities,note_types,payer_ids\n97110,"Exercise, strength and motion",true,GP:1;59:2,,,\n97161,Evaluation low complexity,false,,,INITIAL_SOAP,\n',
      );
      const r = runCli(["import", "catalog", csv, "--org", "3"], {}, temp.dir);
      expect(r.status, r.stderr).toBe(0);
      expect(JSON.parse(r.stdout)).toEqual({ imported: "catalog", organisation_id: 3, created: 2, updated: 0 });
      expect(JSON.parse(runCli(["import", "catalog", csv, "--org", "3"], {}, temp.dir).stdout)).toMatchObject({
        created: 0,
        updated: 2,
      });
      const db = new BetterSqlite3(join(temp.dir, "data", "openpractice.db"), { readonly: true });
      expect(
        db
          .prepare(
            "select code, timed, modifiers, note_types from billing_codes where organisation_id = 3 order by code",
          )
          .all(),
      ).toEqual([
        {
          code: "97110",
          timed: 1,
          modifiers: JSON.stringify([
            { cptModifierId: 1, cptModifierCode: "GP", className: "", description: "", filter: false },
            { cptModifierId: 2, cptModifierCode: "59", className: "", description: "", filter: false },
          ]),
          note_types: "[]",
        },
        { code: "97161", timed: 0, modifiers: "[]", note_types: '["INITIAL_SOAP"]' },
      ]);
      db.close();
      const bad = join(temp.dir, "bad.csv");
      writeFileSync(bad, "code,description,timed\n9711,Too short,true\n");
      const refused = runCli(["import", "catalog", bad], {}, temp.dir);
      expect(refused.status).toBe(64);
      expect(refused.stderr).toContain("row 2.code: must be a 5-character CPT or HCPCS code");
    } finally {
      temp.remove();
    }
  });
});
