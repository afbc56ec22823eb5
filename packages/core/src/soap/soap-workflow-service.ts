import { queueCosignChange } from "./cosign-watch.js";
import { queuePlanOfCareChange } from "./plan-of-care-watch.js";
import { isCalendarDate } from "../kernel/calendar-date.js";
import { type CertificationState, certificationState } from "../medicare/plan-certification.js";
import { soapEvent } from "./soap-events.js";
import { systemError } from "../kernel/system-errors.js";
import { soapError } from "./soap-errors.js";
import type { Principal } from "../auth/principal.js";
import type { Claim, ClaimDraft } from "../billing/claim.js";
import type { Clock } from "../kernel/clock.js";
import { localDate } from "../cases/visit-tracking.js";
import { DomainError } from "../kernel/domain-error.js";
import { documentationSettingsOf } from "../organisations/documentation-settings.js";
import type { DocumentationSettings } from "../organisations/organisation.js";
import type { BillingGateway } from "../billing/billing-gateway.js";
import type { SoapNoteChanges } from "./soap-note-repository.js";
import type { Storage } from "../kernel/storage.js";
import type { SoapServiceRepositories } from "./soap-service-repositories.js";
import { existingNote, lockedNote } from "./note-locks.js";
import { certificationEnd, disciplineOf, goalsOf, medicalNecessityOf, type PlanOfCare } from "./plan-of-care.js";
import { diagnosesOf, missingSections, requiredSections, soapContentHash } from "./soap-note-content.js";
import { noteEventData } from "./soap-note-service.js";
import {
  allowedNoteActions,
  soapNoteTransitions,
  type SoapNoteAction,
  type SoapNoteGuard,
  type SoapNoteTransition,
} from "./soap-note-transitions.js";
import type { FormSubmission, SoapNote } from "./soap-note.js";
import type { SoapNoteHistoryEntry, SoapSignature } from "./soap-signature.js";
import { catalogById } from "./treatment-sheet-service.js";
import { assessTreatments } from "./treatment-sheet-rules.js";
import { visitLinesOf } from "./treatment-sheet-service.js";
import {
  type MedicareVisitCheck,
  recordCompletedVisit,
  visitThresholdCheck,
} from "../medicare/therapy-threshold-service.js";
import { ASSISTANT_PAYMENT_PERCENT, disciplineOfCredentials } from "../medicare/therapy-discipline.js";
import type { Provider } from "../organisations/organisation.js";
import {
  PROGRESS_REPORT_INTERVAL,
  type ProgressReportPeriod,
  progressReportPeriod,
} from "../cases/progress-reports.js";
import type { MedicareWarning } from "../medicare/visit-thresholds.js";

/** An INCOMPLETED note is a documented visit once its author signed it (completed ones always are). */
async function isSigned(tx: SoapServiceRepositories, note: SoapNote): Promise<boolean> {
  if (note.completed) return true;
  const signatures = await tx.soapNotes.signaturesOf(note.organisationId, note.contextId);
  return signatures.some((s) => s.role === "AUTHOR");
}

/** A note after a status action, with the warnings the action raised (the Medicare therapy rules'; empty otherwise). */
export type SoapNoteActionResult = SoapNote & { warnings: MedicareWarning[] };

const planNotFound = (id: unknown) =>
  soapError("PLAN_OF_CARE_NOT_FOUND", "Plan of care not found", { plan_of_care_id: id });

/** A plan of care with where its certification stands today (docs/medicare-therapy.md). */
export type PlanOfCareView = PlanOfCare & { certification: CertificationState };

/** A certification's date is a real date on or after the evaluation and not ahead of today (UTC, a day's grace); a signer is named. */
function certificationIssues(plan: PlanOfCare, input: { signedOn: string; signedBy: string }, now: Date) {
  const issues: { field: string; reason: string; value?: unknown }[] = [];
  const tomorrow = new Date(now.getTime() + 86_400_000).toISOString().slice(0, 10);
  if (typeof input.signedOn !== "string" || !isCalendarDate(input.signedOn))
    issues.push({ field: "signedOn", reason: "must be a date, YYYY-MM-DD", value: input.signedOn ?? null });
  else if (input.signedOn < plan.certificationStart)
    issues.push({
      field: "signedOn",
      reason: `must be on or after the evaluation that set the plan (${plan.certificationStart})`,
      value: input.signedOn,
    });
  else if (input.signedOn > tomorrow)
    issues.push({ field: "signedOn", reason: "must not be in the future", value: input.signedOn });
  if (typeof input.signedBy !== "string" || input.signedBy.trim() === "" || input.signedBy.trim().length > 200)
    issues.push({ field: "signedBy", reason: "must name the certifying physician or NPP, 1 to 200 characters" });
  return issues;
}

/** The longest reason a supervisor may give when returning a note for revision. */
export const RETURN_REASON_MAX_LENGTH = 2000;
import type { TreatmentSheetAssessment } from "./treatment-sheet.js";

/** The job queue that renders a completed note's PDF summaries. */
export const SOAP_SUMMARY_QUEUE = "soap.render-summary";

/** What the guards look at, read once per action inside the note's lock. */
interface NoteState {
  note: SoapNote;
  settings: DocumentationSettings;
  forms: FormSubmission[];
  /** The Assessment section's diagnoses (the claim's and the plan of care's). */
  diagnoses: ReturnType<typeof diagnosesOf>;
  assessment: TreatmentSheetAssessment;
  signatures: SoapSignature[];
  contentHash: string;
  cosignRequired: boolean;
  renderer: Provider | undefined;
  /** The Medicare therapy rules over the visit (read for SIGN and COMPLETE); undefined: not billed to Medicare Part B. */
  medicare: MedicareVisitCheck | undefined;
  /** A Medicare daily note of a case being signed: its reporting period with this visit in it. */
  progress: ProgressReportPeriod | undefined;
}

/** A guard that does not hold: the code and words of the refusal. */
interface GuardFailure {
  code: "SIGNER_NOT_ALLOWED" | "NOTE_INCOMPLETE" | "PROGRESS_REPORT_DUE";
  message: string;
  details: Record<string, unknown>;
}

const overBilled = (a: TreatmentSheetAssessment) =>
  a.lines.flatMap((l, i) =>
    l.overBilled
      ? [
          {
            line: i,
            treatment_class_id: l.treatmentClassId,
            code: l.code,
            units: l.units,
            supported_units: l.supportedUnits,
          },
        ]
      : [],
  );

/** Rows told apart by the co-signature setting (SIGN has one of each): whether this row is the organisation's. */
const appliesToSetting = (row: SoapNoteTransition, s: NoteState) =>
  !(row.guards.includes("cosign_required") && !s.cosignRequired) &&
  !(row.guards.includes("cosign_not_required") && s.cosignRequired);

/** Evaluates one guard of the table; undefined when it holds. */
function checkGuard(guard: SoapNoteGuard, s: NoteState, actor: number | null): GuardFailure | undefined {
  switch (guard) {
    case "author":
      return actor === s.note.renderingPhysician
        ? undefined
        : {
            code: "SIGNER_NOT_ALLOWED",
            message: `Only the rendering physician (user ${s.note.renderingPhysician}) can sign this note`,
            details: { required_user_id: s.note.renderingPhysician, user_id: actor },
          };
    case "supervisor":
      return actor !== null && actor === s.note.supervisingPhysician
        ? undefined
        : {
            code: "SIGNER_NOT_ALLOWED",
            message: `Only the supervising physician (user ${s.note.supervisingPhysician}) can co-sign or return this note`,
            details: { required_user_id: s.note.supervisingPhysician, user_id: actor },
          };
    case "cosign_required":
    case "cosign_not_required":
      // Not a refusal: these pick which row of SIGN applies (appliesToSetting).
      return undefined;
    case "ready": {
      const missing = missingSections(s.note, s.forms, requiredSections(s.settings));
      const lines = overBilled(s.assessment);
      if (!missing.length && !lines.length) return undefined;
      const words = [
        missing.length ? `sections not filled: ${missing.join(", ")}` : "",
        lines.length
          ? `units over what ${s.assessment.rule} supports on ${lines.map((l) => `${l.code} (${l.units} billed, ${l.supported_units} supported)`).join(", ")}`
          : "",
      ].filter(Boolean);
      return {
        code: "NOTE_INCOMPLETE",
        message: `The note is not ready: ${words.join("; ")}`,
        details: { missing_sections: missing, over_billed_lines: lines },
      };
    }
    case "medicare_modifiers": {
      const missing = (s.medicare?.lines ?? []).filter((l) => l.disciplineModifierMissing);
      if (!missing.length) return undefined;
      return {
        code: "NOTE_INCOMPLETE",
        message: `Medicare Part B needs GP, GO or GN on every billed therapy line (CMS Pub. 100-04, chapter 5, section 20.1): ${missing.map((l) => `${l.code}${l.proposedModifiers[0] ? ` (${l.proposedModifiers[0]} proposed)` : ""}`).join(", ")}`,
        details: {
          lines_without_discipline_modifier: missing.map((l) => ({
            line: l.index,
            code: l.code,
            proposed_modifier: l.discipline ? (l.proposedModifiers[0] ?? null) : null,
          })),
        },
      };
    }
    case "progress_report": {
      if (!s.progress || s.progress.treatmentDays < PROGRESS_REPORT_INTERVAL) return undefined;
      const since = s.progress.lastReportAt
        ? `the last report (${s.progress.lastReportAt.toISOString().slice(0, 10)})`
        : "the case's first visit";
      return {
        code: "PROGRESS_REPORT_DUE",
        message: `Medicare Part B needs a progress report at least every ${PROGRESS_REPORT_INTERVAL} treatment days (CMS Pub. 100-02, chapter 15, section 220.3.D): this visit is treatment day ${s.progress.treatmentDays} since ${since}; write it as a PROGRESS_REPORT note`,
        details: {
          treatment_days: s.progress.treatmentDays,
          interval: PROGRESS_REPORT_INTERVAL,
          last_report_at: s.progress.lastReportAt?.toISOString() ?? null,
        },
      };
    }
    case "author_signed":
    case "signed": {
      const current = (role: string) => s.signatures.find((x) => x.role === role);
      const needed = s.cosignRequired && guard === "signed" ? ["AUTHOR", "COSIGNER"] : ["AUTHOR"];
      const unsigned = needed.filter((role) => !current(role));
      const stale = needed.filter((role) => current(role) && current(role)!.contentHash !== s.contentHash);
      if (!unsigned.length && !stale.length) return undefined;
      const words = [
        unsigned.length
          ? `not signed by ${unsigned.map((r) => (r === "AUTHOR" ? "the rendering physician" : "the supervising physician")).join(" and ")}`
          : "",
        stale.length ? "the content changed after it was signed; sign it again" : "",
      ].filter(Boolean);
      return {
        code: "NOTE_INCOMPLETE",
        message: `The note is not signed: ${words.join("; ")}`,
        details: { unsigned, stale_signatures: stale, content_hash: s.contentHash },
      };
    }
  }
}

/**
 * Signing, co-signing, sending back and completing notes: the table in
 * soap-note-transitions.ts, its guards and its effects, each action in one
 * transaction under the note's lock, with an audit entry and (on completion)
 * the PDF job, the claim, the plan of care and the event.
 */
export class SoapWorkflowService {
  constructor(
    private readonly deps: { storage: Storage<SoapServiceRepositories>; clock: Clock; billingGateway: BillingGateway },
  ) {}

  sign(principal: Principal, contextId: string): Promise<SoapNoteActionResult> {
    return this.act(principal, contextId, "SIGN");
  }

  cosign(principal: Principal, contextId: string): Promise<SoapNoteActionResult> {
    return this.act(principal, contextId, "COSIGN");
  }

  async returnForRevision(principal: Principal, contextId: string, reason: string): Promise<SoapNoteActionResult> {
    if (typeof reason !== "string" || reason.trim() === "" || reason.length > RETURN_REASON_MAX_LENGTH) {
      throw DomainError.validation([
        { field: "reason", reason: `must say what to revise, 1 to ${RETURN_REASON_MAX_LENGTH} characters` },
      ]);
    }
    return this.act(principal, contextId, "RETURN_FOR_REVISION", reason.trim());
  }

  complete(principal: Principal, contextId: string): Promise<SoapNoteActionResult> {
    return this.act(principal, contextId, "COMPLETE");
  }

  /** The note's current and revoked signatures, oldest first. */
  async signatures(principal: Principal, contextId: string): Promise<SoapSignature[]> {
    const r = this.deps.storage.repositories;
    await existingNote(r, principal, contextId);
    return r.soapNotes.signaturesOf(principal.organisationId, contextId, { includeRevoked: true });
  }

  /** The note's audit trail: creation, sheet writes and every status action, oldest first. */
  async history(principal: Principal, contextId: string): Promise<SoapNoteHistoryEntry[]> {
    const r = this.deps.storage.repositories;
    await existingNote(r, principal, contextId);
    return r.soapNotes.historyOf(principal.organisationId, contextId);
  }

  /**
   * A plan of care of the caller's organisation, with where its certification stands today. A plan belongs to its
   * evaluation's clinic: outside the caller's clinic restriction it is not there.
   */
  async planOfCare(principal: Principal, id: number): Promise<PlanOfCareView> {
    const r = this.deps.storage.repositories;
    const plan = await r.plansOfCare.findById(principal.organisationId, id);
    if (!plan) throw planNotFound(id);
    const source = await existingNote(r, principal, plan.sourceContextId, () => planNotFound(id));
    return this.withCertification(r, plan, source.clinicId);
  }

  /** The plan with its certification judged on today's date at the evaluation's clinic (its time zone). */
  private async withCertification(
    r: Pick<SoapServiceRepositories, "organisations">,
    plan: PlanOfCare,
    clinicId: number,
  ): Promise<PlanOfCareView> {
    const clinic = await r.organisations.findClinic(plan.organisationId, clinicId);
    const today = localDate(this.deps.clock.now(), clinic?.timeZone ?? "UTC");
    return { ...plan, certification: certificationState(plan, today) };
  }

  /**
   * Records the physician's or NPP's certification of the plan's current period (the date they signed it and who):
   * on or after the evaluation, not in the future. Recording it again corrects it. A re-evaluation starts a new
   * period, to certify again.
   */
  async certifyPlanOfCare(
    principal: Principal,
    id: number,
    input: { signedOn: string; signedBy: string },
  ): Promise<PlanOfCareView> {
    const orgId = principal.organisationId;
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const found = await tx.plansOfCare.findById(orgId, id);
      if (!found) throw planNotFound(id);
      const plan = await tx.plansOfCare.findFor(orgId, found.patientId, found.serviceCaseId, { forUpdate: true });
      if (!plan) throw planNotFound(id);
      const source = await existingNote(tx, principal, plan.sourceContextId, () => planNotFound(id));
      const issues = certificationIssues(plan, input, now);
      if (issues.length) throw DomainError.validation(issues);
      const certified = { ...plan, certifiedOn: input.signedOn, certifiedBy: input.signedBy.trim(), updatedAt: now };
      await tx.plansOfCare.update(certified);
      await queuePlanOfCareChange(tx, orgId, plan.id, now);
      return this.withCertification(tx, certified, source.clinicId);
    });
  }

  /** The claim the default gateway recorded for a note. */
  async claim(principal: Principal, contextId: string): Promise<Claim> {
    const r = this.deps.storage.repositories;
    await existingNote(r, principal, contextId);
    const claim = await r.claims.findByContextId(principal.organisationId, contextId);
    if (!claim)
      throw soapError(
        "CLAIM_NOT_FOUND",
        "The note has no claim: it is not completed, or the organisation does not auto-submit to the stored claims",
        { context_id: contextId },
      );
    return claim;
  }

  private async readState(tx: SoapServiceRepositories, note: SoapNote, action: SoapNoteAction): Promise<NoteState> {
    const orgId = note.organisationId;
    const [settings, forms, sheet, signatures, catalog, renderer] = await Promise.all([
      documentationSettingsOf(tx, orgId),
      tx.soapNotes.formsOf(orgId, note.contextId),
      tx.treatmentSheets.findByContextId(orgId, note.contextId),
      tx.soapNotes.signaturesOf(orgId, note.contextId),
      catalogById(tx, orgId),
      tx.organisations.findProvider(orgId, note.renderingPhysician),
    ]);
    const treatments = sheet?.treatments ?? [];
    const assessment = assessTreatments(settings.billingUnitRule, treatments, catalog);
    const medicare =
      action === "SIGN" || action === "COMPLETE"
        ? await visitThresholdCheck(tx, note, visitLinesOf(assessment))
        : undefined;
    const progress =
      medicare && note.type === "FOLLOWUP_SOAP" && note.serviceCaseId !== null
        ? await this.reportingPeriod(tx, note)
        : undefined;
    return {
      note,
      settings,
      forms,
      diagnoses: diagnosesOf(forms.find((f) => f.section === "Assessment")),
      assessment,
      renderer,
      medicare,
      progress,
      signatures,
      contentHash: soapContentHash(note, forms, treatments),
      // The organisation's rule, or the rendering provider's own (a PTA's notes): either needs the supervisor's co-signature.
      cosignRequired:
        (settings.requireCosign || renderer?.requiresCosign === true) && note.supervisingPhysician !== null,
    };
  }

  /**
   * The note's case's reporting period with the note as one more visit. Every documented visit counts, not only the
   * completed ones: a note signed or awaiting co-signature is a treatment day already, so two daily notes signed
   * before either completes cannot both pass as the 9th day (checked again at completion, in completion order).
   */
  private async reportingPeriod(tx: SoapServiceRepositories, note: SoapNote): Promise<ProgressReportPeriod> {
    const orgId = note.organisationId;
    const [clinics, { notes }] = await Promise.all([
      tx.organisations.listClinics(orgId),
      tx.soapNotes.list({
        organisationId: orgId,
        serviceCaseId: note.serviceCaseId ?? undefined,
        statuses: ["INCOMPLETED", "COSIGN", "COMPLETED"],
        limit: 10_000,
        offset: 0,
      }),
    ]);
    const others = notes.filter((n) => n.contextId !== note.contextId && n.type !== "ADDENDUM");
    const documented = await Promise.all(
      others.map(async (n) => ({ ...n, completed: n.status !== "INCOMPLETED" || (await isSigned(tx, n)) })),
    );
    const zoneOf = (clinicId: number) => clinics.find((c) => c.id === clinicId)?.timeZone ?? "UTC";
    return progressReportPeriod([...documented, { ...note, completed: true }], zoneOf);
  }

  /** The row whose guards all hold, or the refusal of the most relevant failing guard (who may act before what is missing). */
  private choose(rows: SoapNoteTransition[], s: NoteState, actor: number | null): SoapNoteTransition {
    const failures: GuardFailure[] = [];
    for (const row of rows) {
      if (!appliesToSetting(row, s)) continue;
      const failed = row.guards.map((g) => checkGuard(g, s, actor)).filter((f): f is GuardFailure => f !== undefined);
      if (!failed.length) return row;
      failures.push(...failed);
    }
    const first = failures.find((f) => f.code === "SIGNER_NOT_ALLOWED") ?? failures[0];
    if (!first) throw new Error("no SOAP note transition row applies; the table is incomplete");
    // Every content problem at once, so the client can show them together.
    const content = failures.filter((f) => f.code === "NOTE_INCOMPLETE");
    if (first.code === "NOTE_INCOMPLETE" && content.length > 1) {
      throw soapError(
        "NOTE_INCOMPLETE",
        content.map((f) => f.message).join(". "),
        Object.assign({}, ...content.map((f) => f.details)),
      );
    }
    throw soapError(first.code, first.message, { context_id: s.note.contextId, ...first.details });
  }

  private async act(
    principal: Principal,
    contextId: string,
    action: SoapNoteAction,
    reason?: string,
  ): Promise<SoapNoteActionResult> {
    const orgId = principal.organisationId;
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const note = await lockedNote(tx, principal, contextId);
      const rows = soapNoteTransitions(note.status, action);
      if (!rows.length) {
        throw systemError("INVALID_TRANSITION", `Cannot ${action} a note in status ${note.status}`, {
          context_id: note.contextId,
          current_status: note.status,
          action,
          allowed_actions: allowedNoteActions(note.status),
        });
      }
      // Completions of one patient's notes count towards one Medicare year: they read and write it one at a time.
      if (action === "COMPLETE") await tx.therapyCharges.lockPatient(orgId, note.patientId);
      const state = await this.readState(tx, note, action);
      const row = this.choose(rows, state, principal.userId);
      const changes: SoapNoteChanges = { status: row.to, updatedAt: now };
      // The clinic-local service date (the claim's and the plan of care's): read once, when an effect needs it.
      let serviceDate: Promise<string> | undefined;
      const serviceDateOnce = () => (serviceDate ??= this.serviceDate(tx, note));
      const details: Record<string, unknown> = {};
      const warnings: MedicareWarning[] = [];
      for (const effect of row.effects) {
        switch (effect) {
          case "store_signature": {
            // A new signature replaces the author's earlier one and any co-signature of older content.
            await tx.soapNotes.revokeSignatures(orgId, note.contextId, ["AUTHOR", "COSIGNER"], now, "signed again");
            await tx.soapNotes.addSignature({
              organisationId: orgId,
              contextId: note.contextId,
              role: "AUTHOR",
              userId: principal.userId!,
              contentHash: state.contentHash,
              signedAt: now,
            });
            details.content_hash = state.contentHash;
            break;
          }
          case "store_cosignature":
            await tx.soapNotes.addSignature({
              organisationId: orgId,
              contextId: note.contextId,
              role: "COSIGNER",
              userId: principal.userId!,
              contentHash: state.contentHash,
              signedAt: now,
            });
            details.content_hash = state.contentHash;
            break;
          case "revoke_signatures":
            await tx.soapNotes.revokeSignatures(
              orgId,
              note.contextId,
              ["AUTHOR", "COSIGNER"],
              now,
              `returned for revision: ${reason}`,
            );
            details.reason = reason;
            break;
          case "set_completed":
            Object.assign(changes, { completed: true, completedAt: now });
            details.content_hash = state.contentHash;
            break;
          case "queue_summary_pdf":
            await tx.jobs.enqueue({
              queue: SOAP_SUMMARY_QUEUE,
              payload: { organisationId: orgId, contextId: note.contextId },
              runAt: now,
            });
            Object.assign(changes, { summaryStatus: "PENDING", summaryFailure: null });
            break;
          case "submit_for_billing":
            Object.assign(changes, await this.submitForBilling(tx, state, now, serviceDateOnce));
            break;
          case "update_plan_of_care":
            if (note.type === "INITIAL_SOAP") {
              changes.planOfCareId = await this.updatePlanOfCare(tx, state, now, serviceDateOnce);
              await queuePlanOfCareChange(tx, orgId, changes.planOfCareId, now);
            }
            break;
          case "warn_medicare_thresholds":
            if (state.medicare) {
              warnings.push(...state.medicare.warnings);
              details.medicare_warnings = state.medicare.warnings.map((w) => w.code);
            }
            break;
          case "record_therapy_charges":
            if (state.medicare) {
              await recordCompletedVisit(tx, note, state.medicare, visitLinesOf(state.assessment), now);
              warnings.push(...state.medicare.warnings);
              details.medicare_warnings = state.medicare.warnings.map((w) => w.code);
            }
            break;
          case "emit_soap_note_completed":
            await tx.outbox.append(soapEvent("soap_note.completed", noteEventData(note), now));
            break;
        }
      }
      await tx.soapNotes.updateNote(orgId, note.contextId, changes);
      await tx.soapNotes.appendHistory({
        organisationId: orgId,
        contextId: note.contextId,
        action,
        fromStatus: note.status,
        toStatus: row.to,
        actorUserId: principal.userId,
        at: now,
        details,
      });
      if (note.status === "COSIGN" || row.to === "COSIGN") await queueCosignChange(tx, orgId, note.contextId, now);
      // updateNote writes exactly `changes`: the note as stored now, without reading it back.
      return { ...note, ...changes, warnings };
    });
  }

  private async serviceDate(tx: SoapServiceRepositories, note: SoapNote): Promise<string> {
    const clinic = await tx.organisations.findClinic(note.organisationId, note.clinicId);
    return localDate(note.serviceDateTime, clinic?.timeZone ?? "UTC");
  }

  /** Auto-submission: the claim of the billed lines and the Assessment's codes goes through the gateway. */
  private async submitForBilling(
    tx: SoapServiceRepositories,
    s: NoteState,
    now: Date,
    serviceDate: () => Promise<string>,
  ): Promise<Partial<SoapNoteChanges>> {
    if (!s.settings.autoSubmitBilling) return { billingStatus: "NOT_SUBMITTED" };
    const claim: ClaimDraft = {
      organisationId: s.note.organisationId,
      contextId: s.note.contextId,
      patientId: s.note.patientId,
      serviceCaseId: s.note.serviceCaseId,
      serviceDate: await serviceDate(),
      renderingPhysician: s.note.renderingPhysician,
      diagnosisCodes: [
        ...new Set(
          [...s.diagnoses]
            .sort((a, b) => Number(Boolean(b.is_primary)) - Number(Boolean(a.is_primary)))
            .map((d) => d.code),
        ),
      ],
      lines: s.assessment.lines
        .filter((l) => l.units > 0)
        .map((l) => {
          const modifiers = l.modifiers.map((m) => m.cptModifierCode);
          return {
            code: l.code,
            modifiers,
            units: l.units,
            minutes: l.duration,
            // A therapy assistant's service (CQ, CO) is paid at 85% of the fee schedule amount.
            paymentPercent: modifiers.some((m) => m === "CQ" || m === "CO") ? ASSISTANT_PAYMENT_PERCENT : 100,
          };
        }),
    };
    const submitted = await this.deps.billingGateway.submit(claim, tx, now);
    return { submitForBilling: true, billingStatus: submitted.status };
  }

  /** INITIAL_SOAP: the case's plan of care takes this evaluation's diagnoses, goals and a new 90-day certification. */
  private async updatePlanOfCare(
    tx: SoapServiceRepositories,
    s: NoteState,
    now: Date,
    serviceDate: () => Promise<string>,
  ): Promise<number> {
    const n = s.note;
    const patientCase =
      n.serviceCaseId === null ? undefined : await tx.cases.findById(n.organisationId, n.serviceCaseId);
    const start = await serviceDate();
    const plan = s.forms.find((f) => f.section === "Plan")?.response ?? {};
    const fields = {
      sourceContextId: n.contextId,
      diagnoses: s.diagnoses.map((d) => ({ code: d.code, description: d.description, isPrimary: d.is_primary })),
      goals: goalsOf(plan),
      medicalNecessity: medicalNecessityOf(plan),
      discipline:
        disciplineOf(plan) ?? (s.renderer ? disciplineOfCredentials(s.renderer.credentials) : undefined) ?? null,
      // A new period: the physician or NPP certifies it anew.
      certifiedOn: null,
      certifiedBy: null,
      frequencyAndDuration: patientCase?.frequencyAndDuration ?? null,
      certificationStart: start,
      certificationEnd: certificationEnd(start),
      updatedAt: now,
    };
    // Locked read, then a new version; evaluations of one case completed at once each add theirs in turn.
    const existing = await tx.plansOfCare.findFor(n.organisationId, n.patientId, n.serviceCaseId, { forUpdate: true });
    if (!existing) {
      const created = await tx.plansOfCare.insert({
        organisationId: n.organisationId,
        patientId: n.patientId,
        serviceCaseId: n.serviceCaseId,
        ...fields,
        version: 1,
        createdAt: now,
      });
      if (created) return created.id;
    }
    // Present, or stored by a concurrent completion between the read and the insert.
    const current =
      existing ?? (await tx.plansOfCare.findFor(n.organisationId, n.patientId, n.serviceCaseId, { forUpdate: true }));
    if (!current) throw new Error(`plan of care of patient ${n.patientId} neither inserted nor found`);
    await tx.plansOfCare.update({ ...current, ...fields, version: current.version + 1 });
    return current.id;
  }
}
