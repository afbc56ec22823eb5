import { type FhirPatientCriteria, patientFromDraft, type Storage, toPatientRecord } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-10-01T09:00:00.000Z");
const T1 = new Date("2026-10-05T09:00:00.000Z");

/**
 * The FHIR part of the storage contract: a patient search by folded name prefix, substring and equality, birth
 * date and update ranges, sex and ids (each filter AND, each filter's values OR), never another organisation's
 * patients, in the asked order with the id as tiebreak, a page and whether more follow.
 */
export function describeFhirConformance(engine: string, current: () => { s: Storage; fx: StorageFixture }): void {
  describe("FHIR patient search", () => {
    let s: Storage;
    const ids: Record<string, number> = {};
    const search = (c: Partial<FhirPatientCriteria>) =>
      s.repositories.fhirPatients.search({
        organisationId: 1,
        sort: { field: "id", order: "asc" },
        limit: 50,
        offset: 0,
        ...c,
      });
    const names = async (c: Partial<FhirPatientCriteria>) =>
      (await search(c)).patients.map((p) => `${p.firstName} ${p.lastName}`);

    beforeEach(async () => {
      s = current().s;
      for (const id of [1, 2])
        await s.repositories.organisations.ensure({ id, name: `Org ${id}`, plan: "free", now: T0 });
      const add = async (org: number, first: string, last: string, dob: string, sex: "MALE" | "FEMALE", at = T0) => {
        const r = await s.repositories.patients.insertIfAbsent(
          toPatientRecord(patientFromDraft({ firstName: first, lastName: last, dateOfBirth: dob, sex }, org, at)),
        );
        if (org === 1) ids[`${first} ${last}`] = r.patient.id;
      };
      await add(1, "Ada", "Lovelace", "1815-12-10", "FEMALE");
      await add(1, "José", "Núñez", "1950-03-03", "MALE", T1);
      await add(1, "Joseph", "Nunn", "1950-07-01", "MALE");
      await add(1, "Ann", "O'Neil_50%", "1991-01-31", "FEMALE", T1);
      await add(2, "Ada", "Lovelace", "1815-12-10", "FEMALE");
    });

    it(`[${engine}] matches folded name prefixes, substrings and equality, never another organisation's`, async () => {
      expect(await names({ family: [{ mode: "prefix", values: ["nu"] }] })).toEqual(["José Núñez", "Joseph Nunn"]);
      expect(await names({ given: [{ mode: "prefix", values: ["jos"] }] })).toEqual(["José Núñez", "Joseph Nunn"]);
      expect(await names({ name: [{ mode: "prefix", values: ["ada", "nunn"] }] })).toEqual([
        "Ada Lovelace",
        "Joseph Nunn",
      ]);
      expect(await names({ family: [{ mode: "contains", values: ["love"] }] })).toEqual(["Ada Lovelace"]);
      expect(await names({ family: [{ mode: "exact", values: ["nunez"] }] })).toEqual(["José Núñez"]);
      // LIKE's wildcards are plain characters in a value.
      expect(await names({ family: [{ mode: "contains", values: ["_50%"] }] })).toEqual(["Ann O'Neil_50%"]);
      expect(await names({ family: [{ mode: "prefix", values: ["o'neil%"] }] })).toEqual([]);
      // Two filters: both hold.
      expect(
        await names({ name: [{ mode: "prefix", values: ["jos"] }], family: [{ mode: "prefix", values: ["nunn"] }] }),
      ).toEqual(["Joseph Nunn"]);
    });

    it(`[${engine}] finds every name a plain prefix starts, whatever follows it (the index range's edges)`, async () => {
      await s.repositories.organisations.ensure({ id: 3, name: "Org 3", plan: "free", now: T0 });
      for (const last of [
        "Lutz",
        "Lutzow",
        "Luu",
        "Kowal-Smith",
        "Kowal",
        "Kowalski",
        "Kowam",
        "Zzyzx",
        "Zz Top",
        "O'Neil 9",
      ])
        await s.repositories.patients.insertIfAbsent(
          toPatientRecord(patientFromDraft({ firstName: "Pat", lastName: last, dateOfBirth: "1970-01-01" }, 3, T0)),
        );
      const family = async (prefix: string) =>
        (await search({ organisationId: 3, family: [{ mode: "prefix", values: [prefix] }] })).patients
          .map((p) => p.lastName)
          .sort();
      expect(await family("lutz")).toEqual(["Lutz", "Lutzow"]);
      expect(await family("kowal")).toEqual(["Kowal", "Kowal-Smith", "Kowalski"]);
      expect(await family("kowals")).toEqual(["Kowalski"]);
      expect(await family("zz")).toEqual(["Zz Top", "Zzyzx"]);
      expect(await family("zz ")).toEqual(["Zz Top"]);
      expect(await family("o'neil 9")).toEqual(["O'Neil 9"]);
      expect(await family("lu")).toEqual(["Lutz", "Lutzow", "Luu"]);
    });

    it(`[${engine}] filters by birth date, update time, sex and ids, sorts and pages`, async () => {
      expect(await names({ birthDate: [{ from: "1950-01-01", before: "1951-01-01" }] })).toEqual([
        "José Núñez",
        "Joseph Nunn",
      ]);
      expect(await names({ birthDate: [{ before: "1900-01-01" }] })).toEqual(["Ada Lovelace"]);
      expect(await names({ updated: [{ from: new Date("2026-10-02T00:00:00Z") }] })).toEqual([
        "José Núñez",
        "Ann O'Neil_50%",
      ]);
      expect(await names({ sex: [["FEMALE"]] })).toEqual(["Ada Lovelace", "Ann O'Neil_50%"]);
      expect(await names({ ids: [[ids["Joseph Nunn"]!, ids["Ada Lovelace"]!]] })).toEqual([
        "Ada Lovelace",
        "Joseph Nunn",
      ]);
      expect(await names({ ids: [[]] })).toEqual([]);
      expect(await names({ sort: { field: "birthdate", order: "desc" } })).toEqual([
        "Ann O'Neil_50%",
        "Joseph Nunn",
        "José Núñez",
        "Ada Lovelace",
      ]);
      expect(await names({ sort: { field: "family", order: "asc" } })).toEqual([
        "Ada Lovelace",
        "José Núñez",
        "Joseph Nunn",
        "Ann O'Neil_50%",
      ]);
      const first = await search({ limit: 3 });
      expect(first.patients).toHaveLength(3);
      expect(first.hasMore).toBe(true);
      const second = await search({ limit: 3, offset: 3 });
      expect(second.patients.map((p) => p.lastName)).toEqual(["O'Neil_50%"]);
      expect(second.hasMore).toBe(false);
      expect(second.patients[0]).toEqual(await s.repositories.patients.findById(1, ids["Ann O'Neil_50%"]!));
    });
  });
}
