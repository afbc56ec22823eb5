import { createHash } from "node:crypto";
import { documentEvent } from "../documents/patient-document-events.js";
import { systemError } from "../kernel/system-errors.js";
import { soapError } from "./soap-errors.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DEFAULT_DOCUMENTATION_SETTINGS } from "../organisations/documentation-settings.js";
import type { Storage } from "../kernel/storage.js";
import type { SoapServiceRepositories } from "./soap-service-repositories.js";
import { existingNote, lockedNote } from "./note-locks.js";
import { diagnosesOf, soapContentHash } from "./soap-note-content.js";
import { SOAP_SECTIONS, type FormSubmission, type SoapNote } from "./soap-note.js";
import type { SoapSignature } from "./soap-signature.js";
import { nextSummaryStatus, summaryFailureReason, type SummaryStatus } from "./summary-status.js";
import { SOAP_SUMMARY_QUEUE } from "./soap-workflow-service.js";
import {
  answerLines,
  type SoapDocument,
  type SoapSummary,
  type SoapSummaryRenderer,
  type SummaryVariant,
} from "./soap-summary.js";
import { catalogById } from "./treatment-sheet-service.js";
import { assessTreatments } from "./treatment-sheet-rules.js";

/**
 * Lists the full summary among the patient's documents (category visit_summary), pointing at the bytes just
 * stored rather than copying them; its first rendering writes patient_document.created.
 */
async function listVisitSummary(
  tx: SoapServiceRepositories,
  note: SoapNote,
  content: Uint8Array,
  mediaType: string,
  now: Date,
): Promise<void> {
  const { created, document } = await tx.patientDocuments.recordVisitSummary({
    organisationId: note.organisationId,
    patientId: note.patientId,
    caseId: note.serviceCaseId,
    appointmentId: note.appointmentId,
    clinicId: note.clinicId,
    soapContextId: note.contextId,
    title: `Visit summary ${note.serviceDateTime.toISOString().slice(0, 10)}`,
    fileName: `soap-summary-${note.contextId}.pdf`,
    mediaType,
    sizeBytes: content.byteLength,
    sha256: createHash("sha256").update(content).digest("hex"),
    documentDate: note.serviceDateTime.toISOString().slice(0, 10),
    createdAt: now,
  });
  if (created)
    await tx.outbox.append(
      documentEvent(
        "patient_document.created",
        { organisation_id: note.organisationId, document_id: document.id, patient_id: note.patientId },
        now,
      ),
    );
}

/** Where a host serves a note's summary (the v1 contract passes its paths); stored as summary_doc_url and short_summary_url. */
export type SummaryUrl = (contextId: string, variant: SummaryVariant) => string;

/** "2026-11-20 09:30 (America/New_York)": the clinic's wall clock, so the PDF reads as the visit happened. */
function localDateTime(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", {
    timeZone,
    year: "numeric",
    month: "2-digit",
    day: "2-digit",
    hour: "2-digit",
    minute: "2-digit",
    hourCycle: "h23",
  }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")} (${timeZone})`;
}

/** Renders completed notes' PDF summaries (the job queued at completion) and serves them to the organisation. */
export class SoapDocumentService {
  constructor(
    private readonly deps: {
      storage: Storage<SoapServiceRepositories>;
      clock: Clock;
      renderer: () => SoapSummaryRenderer | undefined;
    },
  ) {}

  /** Everything the summary shows, read from the store. */
  async summaryOf(r: SoapServiceRepositories, note: SoapNote): Promise<SoapSummary> {
    return buildSummary(note, await this.sourcesOf(r, note));
  }

  /** The rows a summary is made of (the only part of rendering that talks to the store). */
  private async sourcesOf(r: SoapServiceRepositories, note: SoapNote): Promise<SummarySources> {
    const orgId = note.organisationId;
    const [org, clinic, patient, forms, sheet, signatures, catalog] = await Promise.all([
      r.organisations.findById(orgId),
      r.organisations.findClinic(orgId, note.clinicId),
      r.patients.findById(orgId, note.patientId),
      r.soapNotes.formsOf(orgId, note.contextId),
      r.treatmentSheets.findByContextId(orgId, note.contextId),
      r.soapNotes.signaturesOf(orgId, note.contextId),
      catalogById(r, orgId),
    ]);
    // Only the providers the summary names: the author, the supervisor and the signers.
    const named = [
      ...new Set(
        [note.renderingPhysician, note.supervisingPhysician, ...signatures.map((s) => s.userId)].filter(
          (id): id is number => id !== null,
        ),
      ),
    ];
    const providers = await Promise.all(named.map((userId) => r.organisations.findProvider(orgId, userId)));
    return { org, clinic, patient, forms, sheet, signatures, catalog, providers };
  }

  /**
   * The job's work: renders both summaries of a COMPLETED note, stores them,
   * sets summary_doc_url and short_summary_url to where `urlOf` says the host
   * serves them and the summary READY. Running it again replaces them.
   * "skipped": nothing to render (no such note, not completed, or its summary
   * no longer waits for this job). "failed": building or rendering the
   * summary threw; that depends only on the note's content, so it would throw
   * every time: the summary is FAILED with the reason (no retry). Reading or
   * writing the store throws, for the job to try again.
   */
  async render(organisationId: number, contextId: string, urlOf: SummaryUrl): Promise<SummaryRenderOutcome> {
    const renderer = this.deps.renderer();
    if (!renderer)
      throw new Error("no SOAP summary renderer configured (startBackgroundWork, or PracticeOptions.summaryRenderer)");
    const r = this.deps.storage.repositories;
    const note = await r.soapNotes.findByContextId(organisationId, contextId);
    if (!note || note.status !== "COMPLETED" || !nextSummaryStatus(summaryStatusOf(note), "RENDERED"))
      return { outcome: "skipped" };
    const sources = await this.sourcesOf(r, note);
    let full: Uint8Array;
    let short: Uint8Array;
    try {
      const summary = buildSummary(note, sources);
      [full, short] = await Promise.all([renderer.render(summary, "full"), renderer.render(summary, "short")]);
    } catch (error) {
      const reason = summaryFailureReason(error);
      await this.markFailed(organisationId, contextId, reason);
      return { outcome: "failed", reason };
    }
    const now = this.deps.clock.now();
    await this.deps.storage.transaction(async (tx) => {
      const current = await tx.soapNotes.lockNote(organisationId, contextId);
      const to = current && nextSummaryStatus(summaryStatusOf(current), "RENDERED");
      if (!to) return;
      for (const [variant, content] of [
        ["full", full],
        ["short", short],
      ] as const) {
        await tx.soapDocuments.put({
          organisationId,
          contextId,
          variant,
          contentType: renderer.contentType,
          content,
          createdAt: now,
        });
      }
      await listVisitSummary(tx, current, full, renderer.contentType, now);
      await tx.soapNotes.updateNote(organisationId, contextId, {
        summaryDocUrl: urlOf(contextId, "full"),
        shortSummaryUrl: urlOf(contextId, "short"),
        summaryStatus: to,
        summaryFailure: null,
        updatedAt: now,
      });
    });
    return { outcome: "rendered" };
  }

  /**
   * Marks a PENDING summary FAILED with `reason` (a render that threw, or a job
   * out of attempts) and records it in the note's history. False when the
   * summary was not pending.
   */
  async markFailed(organisationId: number, contextId: string, reason: string): Promise<boolean> {
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const note = await tx.soapNotes.lockNote(organisationId, contextId);
      const to = note && nextSummaryStatus(summaryStatusOf(note), "FAIL");
      if (!note || !to) return false;
      await tx.soapNotes.updateNote(organisationId, contextId, {
        summaryStatus: to,
        summaryFailure: reason,
        updatedAt: now,
      });
      await tx.soapNotes.appendHistory({
        organisationId,
        contextId,
        action: "SUMMARY_FAILED",
        fromStatus: note.status,
        toStatus: note.status,
        actorUserId: null,
        at: now,
        details: { reason },
      });
      return true;
    });
  }

  /**
   * Queues the summary of a COMPLETED note again (after a failure, or to
   * refresh it): PENDING, the reason cleared, a new job, a history entry. A
   * summary still pending, or a note not completed, is INVALID_TRANSITION.
   */
  async rerender(principal: Principal, contextId: string): Promise<SoapNote> {
    const orgId = principal.organisationId;
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const note = await lockedNote(tx, principal, contextId);
      const from = summaryStatusOf(note);
      const to = note.status === "COMPLETED" ? nextSummaryStatus(from, "RERENDER") : undefined;
      if (!to) {
        const why =
          note.status !== "COMPLETED"
            ? `A note in status ${note.status} has no summary yet; complete it first`
            : `The summary is ${from} already; it is rendered shortly`;
        throw systemError("INVALID_TRANSITION", why, {
          context_id: note.contextId,
          current_status: note.status,
          summary_status: from,
          action: "RERENDER_SUMMARY",
        });
      }
      const changes = { summaryStatus: to, summaryFailure: null, updatedAt: now };
      await tx.jobs.enqueue({
        queue: SOAP_SUMMARY_QUEUE,
        payload: { organisationId: orgId, contextId: note.contextId },
        runAt: now,
      });
      await tx.soapNotes.updateNote(orgId, note.contextId, changes);
      await tx.soapNotes.appendHistory({
        organisationId: orgId,
        contextId: note.contextId,
        action: "RERENDER_SUMMARY",
        fromStatus: note.status,
        toStatus: note.status,
        actorUserId: principal.userId,
        at: now,
        details: { previous_summary_status: from, previous_failure: note.summaryFailure ?? null },
      });
      return { ...note, ...changes };
    });
  }

  /** A stored summary of a note of the caller's organisation. */
  async document(principal: Principal, contextId: string, variant: SummaryVariant): Promise<SoapDocument> {
    const r = this.deps.storage.repositories;
    const note = await existingNote(r, principal, contextId);
    const doc = await r.soapDocuments.get(principal.organisationId, contextId, variant);
    if (!doc) {
      const what = variant === "full" ? "summary" : "short summary";
      const status = summaryStatusOf(note);
      if (status === "FAILED") {
        throw soapError(
          "DOCUMENT_NOT_FOUND",
          `The note's ${what} could not be rendered: ${note.summaryFailure}. Render it again once the cause is fixed`,
          {
            context_id: contextId,
            status: note.status,
            summary_status: status,
            summary_failure: note.summaryFailure ?? null,
          },
        );
      }
      const why =
        note.status === "COMPLETED" ? "is being rendered; try again shortly" : "exists once the note is completed";
      throw soapError("DOCUMENT_NOT_FOUND", `The note's ${what} ${why}`, {
        context_id: contextId,
        status: note.status,
        summary_status: status,
      });
    }
    return doc;
  }
}

/** What one run of the summary job did. */
export type SummaryRenderOutcome = { outcome: "rendered" | "skipped" } | { outcome: "failed"; reason: string };

/** The summary's state; a COMPLETED note from before summary states were stored counts as READY once linked, else PENDING. */
export function summaryStatusOf(note: SoapNote): SummaryStatus | null {
  if (note.summaryStatus) return note.summaryStatus;
  if (note.status !== "COMPLETED") return null;
  return note.summaryDocUrl ? "READY" : "PENDING";
}

interface SummarySources {
  org: Awaited<ReturnType<SoapServiceRepositories["organisations"]["findById"]>>;
  clinic: Awaited<ReturnType<SoapServiceRepositories["organisations"]["findClinic"]>>;
  patient: Awaited<ReturnType<SoapServiceRepositories["patients"]["findById"]>>;
  forms: FormSubmission[];
  sheet: Awaited<ReturnType<SoapServiceRepositories["treatmentSheets"]["findByContextId"]>>;
  signatures: SoapSignature[];
  catalog: Awaited<ReturnType<typeof catalogById>>;
  providers: Awaited<ReturnType<SoapServiceRepositories["organisations"]["findProvider"]>>[];
}

/** The summary in words, from its rows: no store, so the same note always gives the same summary (or the same error). */
function buildSummary(
  note: SoapNote,
  { org, clinic, patient, forms, sheet, signatures, catalog, providers }: SummarySources,
): SoapSummary {
  const orgId = note.organisationId;
  const zone = clinic?.timeZone ?? "UTC";
  const nameOf = (userId: number | null) => {
    if (userId === null) return null;
    const p = providers.find((x) => x?.userId === userId);
    return p ? `${p.firstName} ${p.lastName} (user ${userId})` : `user ${userId}`;
  };
  // The organisation row is among the sources; its settings need no second read.
  const settings = org?.documentation ?? DEFAULT_DOCUMENTATION_SETTINGS;
  const assessment = assessTreatments(settings.billingUnitRule, sheet?.treatments ?? [], catalog);
  const diagnoses = diagnosesOf(forms.find((f) => f.section === "Assessment"));
  return {
    organisationName: org?.name ?? `Organisation ${orgId}`,
    clinicName: clinic?.name ?? null,
    contextId: note.contextId,
    noteType: note.type,
    patient: {
      id: note.patientId,
      name: patient ? `${patient.firstName} ${patient.lastName}` : `Patient ${note.patientId}`,
      dateOfBirth: patient?.dateOfBirth ?? null,
    },
    caseTitle: note.caseTitle,
    serviceDateTime: localDateTime(note.serviceDateTime, zone),
    completedAt: note.completedAt ? localDateTime(note.completedAt, zone) : null,
    renderingPhysician: nameOf(note.renderingPhysician)!,
    supervisingPhysician: nameOf(note.supervisingPhysician),
    // The diagnoses have their own list; the Assessment section shows the rest of its answers.
    sections: SOAP_SECTIONS.map((section) => {
      const response = forms.find((f) => f.section === section)?.response ?? {};
      const skip = section === "Assessment" ? ["medical_diagnosis"] : [];
      return { title: section, lines: answerLines((response[section] as Record<string, unknown>) ?? response, skip) };
    }),
    diagnoses: diagnoses.map((d) => ({ code: d.code, description: d.description, primary: d.is_primary === true })),
    treatments: assessment.lines.map((l) => ({
      code: l.code,
      description: l.description,
      minutes: l.duration,
      units: l.units,
      modifiers: l.modifiers.map((m) => m.cptModifierCode),
    })),
    billingRule: assessment.rule,
    signatures: signatures.map((s) => ({
      role: s.role === "AUTHOR" ? "Signed by" : "Co-signed by",
      name: nameOf(s.userId)!,
      signedAt: localDateTime(s.signedAt, zone),
    })),
    contentHash:
      signatures.find((s) => s.role === "AUTHOR")?.contentHash ?? soapContentHash(note, forms, sheet?.treatments ?? []),
  };
}
