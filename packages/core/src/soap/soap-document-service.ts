import type { Principal } from "../auth/principal.js";
import type { Clock } from "../clock.js";
import { DomainError } from "../errors/domain-error.js";
import { DEFAULT_DOCUMENTATION_SETTINGS } from "../organisations/documentation-settings.js";
import type { Repositories, Storage } from "../ports/storage.js";
import { existingNote } from "./note-locks.js";
import { diagnosesOf, soapContentHash } from "./soap-note-content.js";
import { SOAP_SECTIONS, type SoapNote } from "./soap-note.js";
import { answerLines, type SoapDocument, type SoapSummary, type SoapSummaryRenderer, type SummaryVariant } from "./soap-summary.js";
import { catalogById } from "./treatment-sheet-service.js";
import { assessTreatments } from "./treatment-sheet-rules.js";

/** Where a host serves a note's summary (the v1 contract passes its paths); stored as summary_doc_url and short_summary_url. */
export type SummaryUrl = (contextId: string, variant: SummaryVariant) => string;

/** "2026-11-20 09:30 (America/New_York)": the clinic's wall clock, so the PDF reads as the visit happened. */
function localDateTime(instant: Date, timeZone: string): string {
  const parts = new Intl.DateTimeFormat("en-CA", { timeZone, year: "numeric", month: "2-digit", day: "2-digit", hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(instant);
  const part = (type: string) => parts.find((p) => p.type === type)?.value ?? "";
  return `${part("year")}-${part("month")}-${part("day")} ${part("hour")}:${part("minute")} (${timeZone})`;
}

/** Renders completed notes' PDF summaries (the job queued at completion) and serves them to the organisation. */
export class SoapDocumentService {
  constructor(private readonly deps: { storage: Storage; clock: Clock; renderer: SoapSummaryRenderer | undefined }) {}

  /** Everything the summary shows, read from the store. */
  async summaryOf(r: Repositories, note: SoapNote): Promise<SoapSummary> {
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
    const named = [...new Set([note.renderingPhysician, note.supervisingPhysician, ...signatures.map((s) => s.userId)].filter((id): id is number => id !== null))];
    const providers = await Promise.all(named.map((userId) => r.organisations.findProvider(orgId, userId)));
    const zone = clinic?.timeZone ?? "UTC";
    const nameOf = (userId: number | null) => {
      if (userId === null) return null;
      const p = providers.find((x) => x?.userId === userId);
      return p ? `${p.firstName} ${p.lastName} (user ${userId})` : `user ${userId}`;
    };
    // The organisation row is read above; its settings need no second read.
    const settings = org?.documentation ?? DEFAULT_DOCUMENTATION_SETTINGS;
    const assessment = assessTreatments(settings.billingUnitRule, sheet?.treatments ?? [], catalog);
    const diagnoses = diagnosesOf(forms.find((f) => f.section === "Assessment"));
    return {
      organisationName: org?.name ?? `Organisation ${orgId}`,
      clinicName: clinic?.name ?? null,
      contextId: note.contextId,
      noteType: note.type,
      patient: { id: note.patientId, name: patient ? `${patient.firstName} ${patient.lastName}` : `Patient ${note.patientId}`, dateOfBirth: patient?.dateOfBirth ?? null },
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
      treatments: assessment.lines.map((l) => ({ code: l.code, description: l.description, minutes: l.duration, units: l.units, modifiers: l.modifiers.map((m) => m.cptModifierCode) })),
      billingRule: assessment.rule,
      signatures: signatures.map((s) => ({ role: s.role === "AUTHOR" ? "Signed by" : "Co-signed by", name: nameOf(s.userId)!, signedAt: localDateTime(s.signedAt, zone) })),
      contentHash: signatures.find((s) => s.role === "AUTHOR")?.contentHash ?? soapContentHash(note, forms, sheet?.treatments ?? []),
    };
  }

  /**
   * The job's work: renders both summaries of a COMPLETED note, stores them and
   * sets summary_doc_url and short_summary_url to where `urlOf` says the host
   * serves them. Running it again replaces them. Returns false when there is
   * nothing to render (no such note, or not completed).
   */
  async render(organisationId: number, contextId: string, urlOf: SummaryUrl): Promise<boolean> {
    const renderer = this.deps.renderer;
    if (!renderer) throw new Error("no SOAP summary renderer configured (PracticeOptions.summaryRenderer)");
    const r = this.deps.storage.repositories;
    const note = await r.soapNotes.findByContextId(organisationId, contextId);
    if (!note || note.status !== "COMPLETED") return false;
    const summary = await this.summaryOf(r, note);
    const [full, short] = await Promise.all([renderer.render(summary, "full"), renderer.render(summary, "short")]);
    const now = this.deps.clock.now();
    await this.deps.storage.transaction(async (tx) => {
      for (const [variant, content] of [["full", full], ["short", short]] as const) {
        await tx.soapDocuments.put({ organisationId, contextId, variant, contentType: renderer.contentType, content, createdAt: now });
      }
      await tx.soapNotes.updateNote(organisationId, contextId, { summaryDocUrl: urlOf(contextId, "full"), shortSummaryUrl: urlOf(contextId, "short"), updatedAt: now });
    });
    return true;
  }

  /** A stored summary of a note of the caller's organisation. */
  async document(principal: Principal, contextId: string, variant: SummaryVariant): Promise<SoapDocument> {
    const r = this.deps.storage.repositories;
    const note = await existingNote(r, principal.organisationId, contextId);
    const doc = await r.soapDocuments.get(principal.organisationId, contextId, variant);
    if (!doc) {
      const why = note.status === "COMPLETED" ? "is being rendered; try again shortly" : "exists once the note is completed";
      throw new DomainError("DOCUMENT_NOT_FOUND", `The note's ${variant === "full" ? "summary" : "short summary"} ${why}`, { context_id: contextId, status: note.status });
    }
    return doc;
  }
}
