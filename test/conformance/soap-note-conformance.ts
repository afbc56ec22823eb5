import { patientFromDraft, toPatientRecord, type FormSubmission, type SoapNoteRecord, type Storage } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-conformance.js";

const T0 = new Date("2026-08-01T14:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

/** The SOAP note part of the storage contract: notes by context id, filters, and the forms' compare-and-set. */
export function describeSoapNoteConformance(engine: string, current: () => { s: Storage; fx: StorageFixture }): void {
  describe("soap notes", () => {
    let s: Storage;
    let patientId = 0;
    const record = (contextId: string, over: Partial<SoapNoteRecord> = {}): SoapNoteRecord => ({
      contextId,
      organisationId: 1,
      clinicId: 7,
      patientId,
      serviceCaseId: null,
      caseTitle: null,
      appointmentId: null,
      type: "FOLLOWUP_SOAP",
      category: "MSK",
      serviceDateTime: T0,
      entryDateTime: T0,
      status: "INCOMPLETED",
      completed: false,
      completedAt: null,
      renderingPhysician: 101,
      supervisingPhysician: 103,
      submissionIds: { Subjective: `${contextId}-s`, Objective: `${contextId}-o`, Assessment: `${contextId}-a`, Plan: `${contextId}-p` },
      treatmentSheetId: 0,
      planOfCareId: null,
      submitForBilling: false,
      summaryDocUrl: null,
      shortSummaryUrl: null,
      soapWithoutAppointment: true,
      parent: null,
      dataCarryForwardFrom: null,
      createdAt: T0,
      updatedAt: T0,
      ...over,
    });
    const form = (id: string, contextId: string, version = 1): FormSubmission => ({ id, organisationId: 1, contextId, section: "Assessment", version, response: { a: 1 }, updatedAt: T0 });

    beforeEach(async () => {
      ({ s } = current());
      patientId = (await s.repositories.patients.insertIfAbsent(toPatientRecord(patientFromDraft({ firstName: "Soap", lastName: "Note", dateOfBirth: "1970-01-01" }, 1, T0)))).patient.id;
    });

    it(`[${engine}] notes round-trip by context id, scoped to the organisation, and filter and sort by service date`, async () => {
      const a = await s.repositories.soapNotes.insert(record("ctx-a", { serviceDateTime: at(0) }));
      await s.repositories.soapNotes.insert(record("ctx-b", { serviceDateTime: at(60), status: "COMPLETED", completed: true, completedAt: at(90), clinicId: 8 }));
      expect(await s.repositories.soapNotes.findByContextId(1, "ctx-a")).toEqual(a);
      expect(await s.repositories.soapNotes.findByContextId(2, "ctx-a")).toBeUndefined();
      const list = async (over: object) => (await s.repositories.soapNotes.list({ organisationId: 1, limit: 10, offset: 0, ...over })).notes.map((n) => n.contextId);
      expect(await list({})).toEqual(["ctx-b", "ctx-a"]);
      expect(await list({ clinicId: 8 })).toEqual(["ctx-b"]);
      expect(await list({ completed: false })).toEqual(["ctx-a"]);
      expect(await list({ statuses: ["COMPLETED"] })).toEqual(["ctx-b"]);
      expect(await list({ from: at(30), to: at(61) })).toEqual(["ctx-b"]);
      expect((await s.repositories.soapNotes.list({ organisationId: 1, limit: 1, offset: 1 })).total).toBe(2);
    });

    it(`[${engine}] a form write is compare-and-set on its version: of 8 concurrent writers exactly one wins`, async () => {
      await s.repositories.soapNotes.insert(record("ctx-f"));
      await s.repositories.soapNotes.insertForms([form("f-1", "ctx-f")]);
      expect(await s.repositories.soapNotes.findForm(1, "f-1")).toEqual(form("f-1", "ctx-f"));
      expect(await s.repositories.soapNotes.findForm(2, "f-1")).toBeUndefined();
      const results = await Promise.all(Array.from({ length: 8 }, (_, i) => s.repositories.soapNotes.updateForm({ ...form("f-1", "ctx-f", 2), response: { writer: i }, updatedAt: at(1) })));
      expect(results.filter(Boolean)).toHaveLength(1);
      const stored = await s.repositories.soapNotes.findForm(1, "f-1");
      expect(stored?.version).toBe(2);
      expect(await s.repositories.soapNotes.updateForm({ ...form("f-1", "ctx-f", 4) })).toBe(false);
      expect((await s.repositories.soapNotes.formsOf(1, "ctx-f")).map((f) => f.id)).toEqual(["f-1"]);
    });
  });
}
