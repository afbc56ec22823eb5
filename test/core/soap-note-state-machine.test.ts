import {
  createPractice,
  DomainError,
  patientFromDraft,
  SOAP_NOTE_ACTIONS,
  SOAP_NOTE_STATUSES,
  SOAP_NOTE_TRANSITIONS,
  toPatientRecord,
  type Practice,
  type Principal,
  type SoapNote,
  type SoapNoteAction,
  type SoapNoteStatus,
  type SoapNoteTransition,
  type Storage,
} from "@openpractice/core";
import { PdfLibSummaryRenderer } from "@openpractice/pdf-lib";
import { MemoryStorage } from "@openpractice/testing";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";

const NOW = new Date("2026-04-01T14:00:00.000Z");
const as = (userId: number): Principal => ({
  organisationId: 1,
  userId,
  name: null,
  scopes: ["write"],
  clinicIds: [],
  roles: [],
});
const AUTHOR = as(101);
const SUPERVISOR = as(103);

/** Who would take each action: the refusals below are about the status, not the caller. */
const ACTOR: Record<SoapNoteAction, Principal> = {
  SIGN: AUTHOR,
  COMPLETE: AUTHOR,
  COSIGN: SUPERVISOR,
  RETURN_FOR_REVISION: SUPERVISOR,
};

// Walked twice: with the organisation's default (the spec's three sections suffice, the Plan form stays empty) and with require_plan_section on (all four filled).
describe.each([false, true])(
  "SOAP note state machine (every row of SOAP_NOTE_TRANSITIONS and every refused pair), requirePlanSection %s",
  (requirePlan) => {
    let storage: Storage;
    let practice: Practice;
    let patientId: number;

    beforeEach(async () => {
      storage = new MemoryStorage();
      practice = createPractice({
        keys: testPracticeKeys(),
        storage,
        clock: { now: () => NOW },
        summaryRenderer: new PdfLibSummaryRenderer(),
      });
      const r = storage.repositories;
      await r.organisations.ensure({ id: 1, name: "o", plan: "free", now: NOW });
      const clinicId = (await r.organisations.ensureClinic({ organisationId: 1, name: "Main", timeZone: "UTC" })).id;
      await r.organisations.upsertProvider({
        organisationId: 1,
        userId: 101,
        firstName: "D",
        lastName: "R",
        npi: null,
        supervisingUserId: 103,
        clinicIds: [clinicId],
      });
      await r.organisations.upsertProvider({
        organisationId: 1,
        userId: 103,
        firstName: "H",
        lastName: "M",
        npi: null,
        supervisingUserId: null,
        clinicIds: [clinicId],
      });
      patientId = (
        await r.patients.insertIfAbsent(
          toPatientRecord(patientFromDraft({ firstName: "Ada", lastName: "Byron", dateOfBirth: "1980-01-01" }, 1, NOW)),
        )
      ).patient.id;
      await practice.documentationSettings.update(AUTHOR, { requirePlanSection: requirePlan });
    });
    afterEach(async () => {
      await storage.close();
    });

    const cosign = (required: boolean) => practice.documentationSettings.update(AUTHOR, { requireCosign: required });

    /** A note with every required section filled, ready to sign (the Plan only when the setting requires it). */
    async function filledNote(): Promise<SoapNote> {
      const n = await practice.soapNotes.create(AUTHOR, {
        patientId,
        type: "FOLLOWUP_SOAP",
        soapWithoutAppointment: true,
      });
      const write = (
        section: "Subjective" | "Objective" | "Assessment" | "Plan",
        partialResponse: Record<string, unknown>,
      ) =>
        practice.soapNotes.writeForm(AUTHOR, {
          submissionId: n.submissionIds[section],
          contextId: n.contextId,
          partialResponse,
          version: 2,
        });
      await write("Subjective", { "response.Subjective.complaint": "pain" });
      await write("Objective", { "response.Objective.rom": "full" });
      await write("Assessment", {
        "response.Assessment.diagnosis.medical_diagnosis": [
          {
            uuid: "u",
            id: 1,
            code: "M54.50",
            description: "Low back pain",
            revision: "ICD10",
            billing_type: null,
            is_primary: true,
          },
        ],
      });
      if (requirePlan) await write("Plan", { "response.Plan.goals": ["walk"] });
      return n;
    }

    /** Puts a fresh note into `status` through the service itself (no row surgery); co-signature is required on the way to COSIGN and REVISION. */
    async function noteIn(status: SoapNoteStatus, o: { signed?: boolean } = {}): Promise<string> {
      const n = await filledNote();
      if (status === "INCOMPLETED") {
        await cosign(false);
        if (o.signed) await practice.soapWorkflow.sign(AUTHOR, n.contextId);
        return n.contextId;
      }
      if (status === "COMPLETED") {
        await cosign(false);
        await practice.soapWorkflow.sign(AUTHOR, n.contextId);
        await practice.soapWorkflow.complete(AUTHOR, n.contextId);
        return n.contextId;
      }
      await cosign(true);
      await practice.soapWorkflow.sign(AUTHOR, n.contextId);
      if (status === "REVISION") await practice.soapWorkflow.returnForRevision(SUPERVISOR, n.contextId, "more detail");
      return n.contextId;
    }

    function run(action: SoapNoteAction, contextId: string): Promise<SoapNote> {
      const who = ACTOR[action];
      if (action === "SIGN") return practice.soapWorkflow.sign(who, contextId);
      if (action === "COSIGN") return practice.soapWorkflow.cosign(who, contextId);
      if (action === "RETURN_FOR_REVISION")
        return practice.soapWorkflow.returnForRevision(who, contextId, "please revise");
      return practice.soapWorkflow.complete(who, contextId);
    }

    const snapshot = async (contextId: string) => ({
      note: await storage.repositories.soapNotes.findByContextId(1, contextId),
      signatures: await storage.repositories.soapNotes.signaturesOf(1, contextId, { includeRevoked: true }),
      history: await storage.repositories.soapNotes.historyOf(1, contextId),
    });
    /** Summary jobs due now (claiming them is fine: nothing runs them here). */
    const summaryJobs = async () =>
      (
        await storage.repositories.jobs.claim("soap.render-summary", {
          limit: 100,
          now: NOW,
          leaseMs: 60_000,
          leaseToken: "test",
        })
      ).map((j) => j.payload);

    const rowName = (t: SoapNoteTransition) => `${t.from} --${t.action} [${t.guards.join(", ")}]--> ${t.to}`;

    it.each(SOAP_NOTE_TRANSITIONS.map((t) => [rowName(t), t] as const))("%s", async (_name, row) => {
      const cosignRequired =
        row.guards.includes("cosign_required") ||
        (row.from !== "INCOMPLETED" && !row.guards.includes("cosign_not_required"));
      const contextId = await noteIn(row.from, { signed: row.action === "COMPLETE" });
      // REVISION is reached with co-signature required; the row that signs without it needs the setting turned off after.
      await cosign(cosignRequired && !row.guards.includes("cosign_not_required"));
      const after = await run(row.action, contextId);
      expect(after.status).toBe(row.to);
      const s = await snapshot(contextId);
      const current = s.signatures.filter((x) => x.revokedAt === null).map((x) => x.role);
      if (row.effects.includes("store_signature")) expect(current).toEqual(["AUTHOR"]);
      if (row.effects.includes("store_cosignature")) expect(current).toEqual(["AUTHOR", "COSIGNER"]);
      if (row.effects.includes("revoke_signatures")) expect(current).toEqual([]);
      if (row.effects.includes("set_completed"))
        expect(after).toMatchObject({ completed: true, completedAt: NOW, billingStatus: "NOT_SUBMITTED" });
      if (row.effects.includes("queue_summary_pdf"))
        expect(await summaryJobs()).toEqual([{ organisationId: 1, contextId }]);
      expect(s.history.at(-1)).toMatchObject({ action: row.action, fromStatus: row.from, toStatus: row.to });
    });

    const refused = SOAP_NOTE_STATUSES.flatMap((status) =>
      SOAP_NOTE_ACTIONS.filter(
        (action) => !SOAP_NOTE_TRANSITIONS.some((t) => t.from === status && t.action === action),
      ).map((action) => [status, action] as const),
    );

    it("refuses exactly the pairs the table does not list (one per status and action)", () => {
      expect(refused.length + new Set(SOAP_NOTE_TRANSITIONS.map((t) => `${t.from}/${t.action}`)).size).toBe(
        SOAP_NOTE_STATUSES.length * SOAP_NOTE_ACTIONS.length,
      );
      expect(refused.map(([s, a]) => `${s}/${a}`)).toEqual([
        "INCOMPLETED/COSIGN",
        "INCOMPLETED/RETURN_FOR_REVISION",
        "COSIGN/SIGN",
        "COSIGN/COMPLETE",
        "REVISION/COSIGN",
        "REVISION/RETURN_FOR_REVISION",
        "REVISION/COMPLETE",
        "COMPLETED/SIGN",
        "COMPLETED/COSIGN",
        "COMPLETED/RETURN_FOR_REVISION",
        "COMPLETED/COMPLETE",
      ]);
    });

    it.each(refused)("refuses %s --%s--> with INVALID_TRANSITION and changes nothing", async (status, action) => {
      const contextId = await noteIn(status, { signed: true });
      const before = await snapshot(contextId);
      const error = await run(action, contextId).then(
        () => undefined,
        (e: unknown) => e,
      );
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        code: "INVALID_TRANSITION",
        details: {
          current_status: status,
          action,
          allowed_actions: [...new Set(SOAP_NOTE_TRANSITIONS.filter((t) => t.from === status).map((t) => t.action))],
        },
      });
      expect(await snapshot(contextId)).toEqual(before);
    });

    it("a provider who requires co-signature goes to COSIGN even when the organisation does not require it", async () => {
      await cosign(false);
      const plain = await filledNote();
      expect((await practice.soapWorkflow.sign(AUTHOR, plain.contextId)).status).toBe("INCOMPLETED");
      const author = await storage.repositories.organisations.findProvider(1, 101);
      await practice.providers.update(AUTHOR, author!.id, { requiresCosign: true });
      const supervised = await filledNote();
      expect((await practice.soapWorkflow.sign(AUTHOR, supervised.contextId)).status).toBe("COSIGN");
      await expect(practice.soapWorkflow.complete(AUTHOR, supervised.contextId)).rejects.toMatchObject({
        code: "INVALID_TRANSITION",
      });
      expect((await practice.soapWorkflow.cosign(SUPERVISOR, supervised.contextId)).status).toBe("INCOMPLETED");
    });

    it("refuses a row whose guard fails, naming why: the wrong signer, missing sections, an unsigned note", async () => {
      await cosign(false);
      const empty = await practice.soapNotes.create(AUTHOR, {
        patientId,
        type: "FOLLOWUP_SOAP",
        soapWithoutAppointment: true,
      });
      await expect(practice.soapWorkflow.sign(SUPERVISOR, empty.contextId)).rejects.toMatchObject({
        code: "SIGNER_NOT_ALLOWED",
      });
      await expect(practice.soapWorkflow.sign(AUTHOR, empty.contextId)).rejects.toMatchObject({
        code: "NOTE_INCOMPLETE",
        details: { missing_sections: ["Subjective", "Objective", "Assessment", ...(requirePlan ? ["Plan"] : [])] },
      });
      const ready = await filledNote();
      await expect(practice.soapWorkflow.complete(AUTHOR, ready.contextId)).rejects.toMatchObject({
        code: "NOTE_INCOMPLETE",
        details: { unsigned: ["AUTHOR"] },
      });
      const waiting = await noteIn("COSIGN");
      await expect(practice.soapWorkflow.cosign(AUTHOR, waiting)).rejects.toMatchObject({ code: "SIGNER_NOT_ALLOWED" });
      await expect(practice.soapWorkflow.returnForRevision(SUPERVISOR, waiting, " ")).rejects.toMatchObject({
        code: "VALIDATION_FAILED",
      });
    });
  },
);
