import {
  assertWithinCallerClinics,
  clinicAccess,
  createPractice,
  DomainError,
  patientFromDraft,
  toPatientRecord,
  type Principal,
  type SoapNoteRecord,
} from "@openpractice/core";
import { MemoryStorage } from "@openpractice/testing";
import { describe, expect, it } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";

const NOW = new Date("2026-04-01T14:00:00.000Z");
const principal = (clinicIds: number[]): Principal => ({
  organisationId: 1,
  userId: 101,
  name: null,
  scopes: ["read", "write"],
  clinicIds,
  roles: [],
});

describe("clinicAccess: what a clinic restriction reaches (docs/authentication.md, Clinic restrictions)", () => {
  it("an empty clinic_id_list restricts nothing, records of no clinic included", () => {
    const all = clinicAccess(principal([]));
    expect(all.only).toBeUndefined();
    expect([all.canSee(7), all.canSee(null), all.canSeeAny([]), all.canSeeAll([8, 9])]).toEqual([
      true,
      true,
      true,
      true,
    ]);
  });

  it("a list reaches its clinics only: not another clinic, not a record of no clinic", () => {
    const a = clinicAccess(principal([9, 7, 7]));
    expect(a.only).toEqual([7, 9]);
    expect([a.canSee(7), a.canSee(9), a.canSee(8), a.canSee(null), a.canSee(undefined)]).toEqual([
      true,
      true,
      false,
      false,
      false,
    ]);
    expect([a.canSeeAny([8, 9]), a.canSeeAny([8]), a.canSeeAny([])]).toEqual([true, false, false]);
    expect([a.canSeeAll([7, 9]), a.canSeeAll([7, 8]), a.canSeeAll([])]).toEqual([true, false, true]);
  });

  it("a restricted caller writes only records bound to some of its clinics: none, or one outside, is wider", () => {
    expect(() => assertWithinCallerClinics(principal([]), [], "API clients")).not.toThrow();
    expect(() => assertWithinCallerClinics(principal([7, 9]), [7], "API clients")).not.toThrow();
    for (const wider of [[], [8], [7, 8]]) {
      const refused = (() => {
        try {
          assertWithinCallerClinics(principal([7, 9]), wider, "API clients");
        } catch (error) {
          return error;
        }
      })();
      expect(refused).toBeInstanceOf(DomainError);
      expect(refused).toMatchObject({ code: "INSUFFICIENT_PERMISSIONS", details: { allowed_clinic_ids: [7, 9] } });
    }
  });

  it("a patient's medical records list the completed notes of the token's clinics only", async () => {
    const storage = new MemoryStorage();
    const practice = createPractice({ keys: testPracticeKeys(), storage, clock: { now: () => NOW } });
    const r = storage.repositories;
    await r.organisations.ensure({ id: 1, name: "o", plan: "free", now: NOW });
    const [a, b] = await Promise.all(
      ["A", "B"].map((name) => r.organisations.ensureClinic({ organisationId: 1, name, timeZone: "UTC" })),
    );
    const patientId = (
      await r.patients.insertIfAbsent(
        toPatientRecord(patientFromDraft({ firstName: "Ada", lastName: "Both", dateOfBirth: "1970-01-01" }, 1, NOW)),
      )
    ).patient.id;
    const completed = (contextId: string, clinicId: number, minutes: number): SoapNoteRecord => ({
      contextId,
      organisationId: 1,
      clinicId,
      patientId,
      serviceCaseId: null,
      caseTitle: null,
      appointmentId: null,
      type: "FOLLOWUP_SOAP",
      category: null,
      serviceDateTime: new Date(NOW.getTime() - minutes * 60_000),
      entryDateTime: NOW,
      status: "COMPLETED",
      completed: true,
      completedAt: NOW,
      renderingPhysician: 101,
      supervisingPhysician: null,
      submissionIds: {
        Subjective: `${contextId}s`,
        Objective: `${contextId}o`,
        Assessment: `${contextId}a`,
        Plan: `${contextId}p`,
      },
      treatmentSheetId: 0,
      planOfCareId: null,
      submitForBilling: false,
      billingStatus: null,
      summaryDocUrl: null,
      shortSummaryUrl: null,
      soapWithoutAppointment: true,
      parent: null,
      dataCarryForwardFrom: null,
      createdAt: NOW,
      updatedAt: NOW,
    });
    await r.soapNotes.insert(completed("at-a", a!.id, 60));
    await r.soapNotes.insert(completed("at-b", b!.id, 30));
    const records = async (clinicIds: number[]) =>
      (await practice.soapNotes.medicalRecords(principal(clinicIds), [patientId])).get(patientId)?.length;
    expect(await records([])).toBe(2);
    expect(await records([a!.id])).toBe(1);
    expect(await records([b!.id])).toBe(1);
    await expect(practice.soapNotes.get(principal([a!.id]), "at-b")).rejects.toMatchObject({
      code: "SOAP_NOTE_NOT_FOUND",
    });
    expect((await practice.soapNotes.get(principal([b!.id]), "at-b")).clinicId).toBe(b!.id);
  });
});
