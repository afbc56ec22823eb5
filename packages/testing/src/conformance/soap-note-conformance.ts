import {
  patientFromDraft,
  toPatientRecord,
  type FormSubmission,
  type SoapNoteRecord,
  type Storage,
} from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-08-01T14:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

/**
 * The SOAP note part of the storage contract: notes by context id, filters, the
 * forms' compare-and-set, and what signing and completion store (signatures,
 * history, one treatment sheet per note, claims, plans of care, PDF bytes).
 */
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
      submissionIds: {
        Subjective: `${contextId}-s`,
        Objective: `${contextId}-o`,
        Assessment: `${contextId}-a`,
        Plan: `${contextId}-p`,
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
      createdAt: T0,
      updatedAt: T0,
      ...over,
    });
    const form = (id: string, contextId: string, version = 1): FormSubmission => ({
      id,
      organisationId: 1,
      contextId,
      section: "Assessment",
      version,
      response: { a: 1 },
      updatedAt: T0,
    });

    beforeEach(async () => {
      ({ s } = current());
      patientId = (
        await s.repositories.patients.insertIfAbsent(
          toPatientRecord(patientFromDraft({ firstName: "Soap", lastName: "Note", dateOfBirth: "1970-01-01" }, 1, T0)),
        )
      ).patient.id;
    });

    it(`[${engine}] notes round-trip by context id, scoped to the organisation, and filter and sort by service date`, async () => {
      const a = await s.repositories.soapNotes.insert(record("ctx-a", { serviceDateTime: at(0) }));
      await s.repositories.soapNotes.insert(
        record("ctx-b", {
          serviceDateTime: at(60),
          status: "COMPLETED",
          completed: true,
          completedAt: at(90),
          clinicId: 8,
        }),
      );
      expect(await s.repositories.soapNotes.findByContextId(1, "ctx-a")).toEqual(a);
      expect(await s.repositories.soapNotes.findByContextId(2, "ctx-a")).toBeUndefined();
      const list = async (over: object) =>
        (await s.repositories.soapNotes.list({ organisationId: 1, limit: 10, offset: 0, ...over })).notes.map(
          (n) => n.contextId,
        );
      expect(await list({})).toEqual(["ctx-b", "ctx-a"]);
      expect(await list({ clinicId: 8 })).toEqual(["ctx-b"]);
      expect(await list({ inClinics: [7] })).toEqual(["ctx-a"]);
      expect(await list({ inClinics: [8, 7] })).toEqual(["ctx-b", "ctx-a"]);
      expect(
        (await s.repositories.soapNotes.list({ organisationId: 1, inClinics: [8], limit: 10, offset: 0 })).total,
      ).toBe(1);
      expect(await list({ completed: false })).toEqual(["ctx-a"]);
      expect(await list({ statuses: ["COMPLETED"] })).toEqual(["ctx-b"]);
      expect(await list({ from: at(30), to: at(61) })).toEqual(["ctx-b"]);
      expect((await s.repositories.soapNotes.list({ organisationId: 1, limit: 1, offset: 1 })).total).toBe(2);
    });

    it(`[${engine}] completedNotesOf: each patient's COMPLETED notes, newest first, at most perPatient each, with the Assessment's answers, scoped to the organisation`, async () => {
      const r = s.repositories.soapNotes;
      const other = (
        await s.repositories.patients.insertIfAbsent(
          toPatientRecord(
            patientFromDraft({ firstName: "Other", lastName: "Patient", dateOfBirth: "1971-01-01" }, 1, T0),
          ),
        )
      ).patient.id;
      const done = (contextId: string, minutes: number, over: Partial<SoapNoteRecord> = {}) =>
        r.insert(
          record(contextId, {
            serviceDateTime: at(minutes),
            status: "COMPLETED",
            completed: true,
            completedAt: at(minutes + 30),
            ...over,
          }),
        );
      const assessment = (contextId: string, response: Record<string, unknown>): FormSubmission => ({
        id: `${contextId}-a`,
        organisationId: 1,
        contextId,
        section: "Assessment",
        version: 2,
        response,
        updatedAt: T0,
      });
      await done("mr-old", 0, { clinicId: 8, renderingPhysician: 102 });
      await done("mr-mid", 60);
      await done("mr-new", 120);
      await done("mr-tie", 120); // same service time as mr-new: the later id comes first
      await r.insert(record("mr-open", { serviceDateTime: at(500) })); // INCOMPLETED: not a record
      await r.insert(record("mr-cosign", { serviceDateTime: at(501), status: "COSIGN" }));
      await done("mr-other", 30, { patientId: other });
      await done("mr-foreign", 40, { organisationId: 2 });
      const dx = {
        Assessment: {
          diagnosis: { medical_diagnosis: [{ code: "M54.50", description: "Low back pain", is_primary: true }] },
        },
      };
      await r.insertForms([
        assessment("mr-new", dx),
        assessment("mr-other", { Assessment: {} }),
        { ...assessment("mr-mid", { Plan: { x: 1 } }), section: "Plan", id: "mr-mid-p" },
      ]);

      const all = await r.completedNotesOf(1, [patientId, other, 999_999], 10);
      expect(all.map((n) => n.contextId)).toEqual(
        patientId < other
          ? ["mr-tie", "mr-new", "mr-mid", "mr-old", "mr-other"]
          : ["mr-other", "mr-tie", "mr-new", "mr-mid", "mr-old"],
      );
      expect(all.find((n) => n.contextId === "mr-new")).toEqual({
        contextId: "mr-new",
        patientId,
        clinicId: 7,
        serviceDateTime: at(120),
        renderingPhysician: 101,
        assessment: dx,
      });
      expect(all.find((n) => n.contextId === "mr-old")).toEqual({
        contextId: "mr-old",
        patientId,
        clinicId: 8,
        serviceDateTime: at(0),
        renderingPhysician: 102,
        assessment: {},
      });
      // Only the Assessment form is read; a note without one reads as {}.
      expect(all.find((n) => n.contextId === "mr-mid")?.assessment).toEqual({});
      expect(all.find((n) => n.contextId === "mr-other")?.assessment).toEqual({ Assessment: {} });

      const bounded = await r.completedNotesOf(1, [patientId, other], 2);
      expect(bounded.filter((n) => n.patientId === patientId).map((n) => n.contextId)).toEqual(["mr-tie", "mr-new"]);
      expect(bounded.filter((n) => n.patientId === other).map((n) => n.contextId)).toEqual(["mr-other"]);
      // A clinic restriction picks among its clinics' notes before the per-patient bound: mr-old (clinic 8) is kept.
      expect((await r.completedNotesOf(1, [patientId], 1, [8])).map((n) => n.contextId)).toEqual(["mr-old"]);
      expect((await r.completedNotesOf(1, [patientId], 10, [7])).map((n) => n.contextId)).toEqual([
        "mr-tie",
        "mr-new",
        "mr-mid",
      ]);
      expect(await r.completedNotesOf(2, [patientId], 10)).toEqual([
        expect.objectContaining({ contextId: "mr-foreign" }),
      ]);
      expect(await r.completedNotesOf(1, [], 10)).toEqual([]);
    });

    it(`[${engine}] a form write is compare-and-set on its version: of 8 concurrent writers exactly one wins`, async () => {
      await s.repositories.soapNotes.insert(record("ctx-f"));
      await s.repositories.soapNotes.insertForms([form("f-1", "ctx-f")]);
      expect(await s.repositories.soapNotes.findForm(1, "f-1")).toEqual(form("f-1", "ctx-f"));
      expect(await s.repositories.soapNotes.findForm(2, "f-1")).toBeUndefined();
      const results = await Promise.all(
        Array.from({ length: 8 }, (_, i) =>
          s.repositories.soapNotes.updateForm({
            ...form("f-1", "ctx-f", 2),
            response: { writer: i },
            updatedAt: at(1),
          }),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const stored = await s.repositories.soapNotes.findForm(1, "f-1");
      expect(stored?.version).toBe(2);
      expect(await s.repositories.soapNotes.updateForm({ ...form("f-1", "ctx-f", 4) })).toBe(false);
      expect((await s.repositories.soapNotes.formsOf(1, "ctx-f")).map((f) => f.id)).toEqual(["f-1"]);
    });

    it(`[${engine}] lockNote returns the note (undefined for another organisation) and updateNote changes only what it names`, async () => {
      await s.repositories.soapNotes.insert(record("ctx-w"));
      expect(await s.repositories.soapNotes.lockNote(2, "ctx-w")).toBeUndefined();
      const locked = await s.transaction(async (tx) => {
        const n = await tx.soapNotes.lockNote(1, "ctx-w");
        await tx.soapNotes.updateNote(1, "ctx-w", {
          status: "COMPLETED",
          completed: true,
          completedAt: at(5),
          billingStatus: "SUBMITTED",
          submitForBilling: true,
          planOfCareId: 9,
          treatmentSheetId: 4,
          summaryDocUrl: "/x.pdf",
          shortSummaryUrl: "/y.pdf",
          updatedAt: at(5),
        });
        return n;
      });
      expect(locked?.status).toBe("INCOMPLETED");
      const after = await s.repositories.soapNotes.findByContextId(1, "ctx-w");
      expect(after).toMatchObject({
        status: "COMPLETED",
        completed: true,
        completedAt: at(5),
        billingStatus: "SUBMITTED",
        submitForBilling: true,
        planOfCareId: 9,
        treatmentSheetId: 4,
        summaryDocUrl: "/x.pdf",
        shortSummaryUrl: "/y.pdf",
        updatedAt: at(5),
        patientId,
        type: "FOLLOWUP_SOAP",
      });
      await s.repositories.soapNotes.updateNote(1, "ctx-w", { summaryDocUrl: null, updatedAt: at(6) });
      expect(await s.repositories.soapNotes.findByContextId(1, "ctx-w")).toMatchObject({
        summaryDocUrl: null,
        shortSummaryUrl: "/y.pdf",
        status: "COMPLETED",
      });
    });

    it(`[${engine}] stores the summary's state and failure reason (null until completion), and changes them only when named`, async () => {
      await s.repositories.soapNotes.insert(record("ctx-sum"));
      expect(await s.repositories.soapNotes.findByContextId(1, "ctx-sum")).toMatchObject({
        summaryStatus: null,
        summaryFailure: null,
      });
      const reason = `RangeError: ${"é".repeat(480)}`;
      await s.repositories.soapNotes.updateNote(1, "ctx-sum", {
        summaryStatus: "FAILED",
        summaryFailure: reason,
        updatedAt: at(7),
      });
      expect(await s.repositories.soapNotes.findByContextId(1, "ctx-sum")).toMatchObject({
        summaryStatus: "FAILED",
        summaryFailure: reason,
      });
      await s.repositories.soapNotes.updateNote(1, "ctx-sum", { billingStatus: "SUBMITTED", updatedAt: at(8) });
      expect(await s.repositories.soapNotes.findByContextId(1, "ctx-sum")).toMatchObject({
        summaryStatus: "FAILED",
        summaryFailure: reason,
      });
      await s.repositories.soapNotes.updateNote(1, "ctx-sum", {
        summaryStatus: "PENDING",
        summaryFailure: null,
        updatedAt: at(9),
      });
      expect(await s.repositories.soapNotes.findByContextId(1, "ctx-sum")).toMatchObject({
        summaryStatus: "PENDING",
        summaryFailure: null,
      });
    });

    it(`[${engine}] signatures are kept in order, revoked by role, and history reads back oldest first`, async () => {
      const r = s.repositories.soapNotes;
      const author = await r.addSignature({
        organisationId: 1,
        contextId: "ctx-s",
        role: "AUTHOR",
        userId: 101,
        contentHash: "sha256:aa",
        signedAt: at(1),
      });
      await r.addSignature({
        organisationId: 1,
        contextId: "ctx-s",
        role: "COSIGNER",
        userId: 103,
        contentHash: "sha256:aa",
        signedAt: at(2),
      });
      expect(author).toMatchObject({ role: "AUTHOR", revokedAt: null });
      expect((await r.signaturesOf(1, "ctx-s")).map((x) => x.role)).toEqual(["AUTHOR", "COSIGNER"]);
      expect(await r.signaturesOf(2, "ctx-s")).toEqual([]);
      expect(await r.revokeSignatures(1, "ctx-s", ["COSIGNER"], at(3), "returned")).toBe(1);
      expect(await r.revokeSignatures(1, "ctx-s", ["COSIGNER"], at(3), "again")).toBe(0);
      expect((await r.signaturesOf(1, "ctx-s")).map((x) => x.role)).toEqual(["AUTHOR"]);
      const all = await r.signaturesOf(1, "ctx-s", { includeRevoked: true });
      expect(all[1]).toMatchObject({
        role: "COSIGNER",
        userId: 103,
        contentHash: "sha256:aa",
        signedAt: at(2),
        revokedAt: at(3),
        revokedReason: "returned",
      });
      await r.appendHistory({
        organisationId: 1,
        contextId: "ctx-s",
        action: "SIGN",
        fromStatus: "INCOMPLETED",
        toStatus: "COSIGN",
        actorUserId: 101,
        at: at(1),
        details: { content_hash: "sha256:aa" },
      });
      await r.appendHistory({
        organisationId: 1,
        contextId: "ctx-s",
        action: "RETURN_FOR_REVISION",
        fromStatus: "COSIGN",
        toStatus: "REVISION",
        actorUserId: 103,
        at: at(3),
        details: {},
      });
      expect((await r.historyOf(1, "ctx-s")).map((e) => [e.action, e.toStatus, e.actorUserId])).toEqual([
        ["SIGN", "COSIGN", 101],
        ["RETURN_FOR_REVISION", "REVISION", 103],
      ]);
      expect((await r.historyOf(1, "ctx-s"))[0]!.details).toEqual({ content_hash: "sha256:aa" });
      expect(await r.historyOf(2, "ctx-s")).toEqual([]);
    });

    it(`[${engine}] a note has one treatment sheet: of 6 concurrent inserts exactly one is stored`, async () => {
      const line = {
        treatmentClassId: 3,
        duration: 23,
        units: 2,
        modifiers: [
          { cptModifierId: 1, cptModifierCode: "GP", className: "GP", description: "therapy plan", filter: false },
        ],
      };
      const results = await Promise.all(
        Array.from({ length: 6 }, () =>
          s.repositories.treatmentSheets.insert({
            organisationId: 1,
            contextId: "ctx-t",
            patientId,
            treatments: [line],
            createdAt: T0,
            updatedAt: T0,
          }),
        ),
      );
      const stored = results.filter((x) => x !== undefined);
      expect(stored).toHaveLength(1);
      const sheet = stored[0]!;
      expect(await s.repositories.treatmentSheets.findById(1, sheet.id)).toEqual(sheet);
      expect(await s.repositories.treatmentSheets.findById(2, sheet.id)).toBeUndefined();
      expect(await s.repositories.treatmentSheets.findByContextId(1, "ctx-t")).toEqual(sheet);
      await s.repositories.treatmentSheets.replaceTreatments(1, sheet.id, [{ ...line, units: 1 }], at(1));
      expect(await s.repositories.treatmentSheets.findById(1, sheet.id)).toMatchObject({
        treatments: [{ ...line, units: 1 }],
        updatedAt: at(1),
        createdAt: T0,
      });
    });

    it(`[${engine}] claims, plans of care and PDF bytes round-trip`, async () => {
      const claimId = await s.repositories.claims.insert({
        organisationId: 1,
        contextId: "ctx-c",
        patientId,
        serviceCaseId: null,
        serviceDate: "2026-08-01",
        renderingPhysician: 101,
        diagnosisCodes: ["M54.50"],
        lines: [{ code: "97110", modifiers: ["GP"], units: 2, minutes: 30 }],
        status: "SUBMITTED",
        createdAt: T0,
      });
      expect(await s.repositories.claims.findByContextId(1, "ctx-c")).toEqual({
        id: claimId,
        reference: `claim-${claimId}`,
        organisationId: 1,
        contextId: "ctx-c",
        patientId,
        serviceCaseId: null,
        serviceDate: "2026-08-01",
        renderingPhysician: 101,
        diagnosisCodes: ["M54.50"],
        lines: [{ code: "97110", modifiers: ["GP"], units: 2, minutes: 30 }],
        status: "SUBMITTED",
        createdAt: T0,
      });
      expect(await s.repositories.claims.findByContextId(2, "ctx-c")).toBeUndefined();

      const draft = {
        organisationId: 1,
        patientId,
        serviceCaseId: null,
        sourceContextId: "ctx-c",
        diagnoses: [{ code: "M54.50", description: "Low back pain", isPrimary: true }],
        goals: ["Walk 1 km"],
        frequencyAndDuration: "2x/week",
        medicalNecessity: "Gait deficits limit walking; skilled therapy needed.",
        discipline: "PT" as const,
        certifiedOn: "2026-08-12",
        certifiedBy: "Dr. Lee Park, NPI 1234567893",
        certificationStart: "2026-08-01",
        certificationEnd: "2026-10-29",
        version: 1,
        createdAt: T0,
        updatedAt: T0,
      };
      const plan = await s.repositories.plansOfCare.insert(draft);
      if (!plan) throw new Error("the first plan of a case must be inserted");
      // The certification watch lists plans of cases only, by the end of their period.
      expect(await s.repositories.plansOfCare.listOfCasesEndingFrom(1, "2026-01-01", 0, 10)).toEqual([]);
      expect(await s.repositories.plansOfCare.findFor(1, patientId, null)).toEqual(plan);
      // A second first plan of the case is refused without raising, also inside a transaction that goes on.
      expect(
        await s.transaction(async (tx) => [
          await tx.plansOfCare.insert({ ...draft, goals: ["other"] }),
          await tx.plansOfCare.findFor(1, patientId, null, { forUpdate: true }),
        ]),
      ).toEqual([undefined, plan]);
      expect(await s.repositories.plansOfCare.findFor(1, patientId, 77)).toBeUndefined();
      await s.repositories.plansOfCare.update({ ...plan, goals: ["Run 1 km"], version: 2, updatedAt: at(1) });
      expect(await s.repositories.plansOfCare.findById(1, plan.id)).toEqual({
        ...plan,
        goals: ["Run 1 km"],
        version: 2,
        updatedAt: at(1),
      });
      expect(await s.repositories.plansOfCare.findById(2, plan.id)).toBeUndefined();

      const bytes = new Uint8Array(70_000).map((_, i) => (i * 31) % 256);
      await s.repositories.soapDocuments.put({
        organisationId: 1,
        contextId: "ctx-c",
        variant: "full",
        contentType: "application/pdf",
        content: bytes,
        createdAt: T0,
      });
      const big = await s.repositories.soapDocuments.get(1, "ctx-c", "full");
      expect(big && Buffer.from(big.content).equals(Buffer.from(bytes))).toBe(true);
      expect(big?.contentType).toBe("application/pdf");
      await s.repositories.soapDocuments.put({
        organisationId: 1,
        contextId: "ctx-c",
        variant: "full",
        contentType: "application/pdf",
        content: bytes.subarray(0, 500),
        createdAt: at(1),
      });
      const doc = await s.repositories.soapDocuments.get(1, "ctx-c", "full");
      expect(doc && Buffer.from(doc.content).equals(Buffer.from(bytes.subarray(0, 500)))).toBe(true);
      expect(doc?.createdAt).toEqual(at(1));
      expect(await s.repositories.soapDocuments.get(1, "ctx-c", "short")).toBeUndefined();
      expect(await s.repositories.soapDocuments.get(2, "ctx-c", "full")).toBeUndefined();
    });
  });
}
