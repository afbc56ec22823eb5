import { soapError } from "./soap-errors.js";
import type { Principal } from "../auth/principal.js";
import type { BillingCode } from "../billing/billing-code.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError } from "../kernel/domain-error.js";
import { documentationSettingsOf } from "../organisations/documentation-settings.js";
import type { Storage } from "../kernel/storage.js";
import type { SoapServiceRepositories } from "./soap-service-repositories.js";
import { assertNoteEditable, existingNote, lockedNote } from "./note-locks.js";
import { assessTreatments, normaliseTreatments } from "./treatment-sheet-rules.js";
import type { TreatmentLineInput, TreatmentSheet, TreatmentSheetAssessment } from "./treatment-sheet.js";
import type { SoapNote } from "./soap-note.js";
import { type SheetLine, visitThresholdCheck } from "../medicare/therapy-threshold-service.js";
import type { VisitThresholdCheck } from "../medicare/visit-thresholds.js";
import type { ValidationIssue } from "../kernel/domain-error.js";
import type { TreatmentLine } from "./treatment-sheet.js";

export interface AssessedTreatmentSheet {
  sheet: TreatmentSheet;
  assessment: TreatmentSheetAssessment;
  /** The Medicare therapy thresholds over the visit (KX proposals, warnings); null when it is not billed to Medicare Part B. */
  medicare: VisitThresholdCheck | null;
}

/** The assessed lines as the Medicare rules read them: code, units, minutes (by provider) and modifier codes. */
export const visitLinesOf = (a: TreatmentSheetAssessment): SheetLine[] =>
  a.lines.map((l) => ({
    code: l.code,
    units: l.units,
    duration: l.duration,
    modifiers: l.modifiers.map((m) => m.cptModifierCode),
    providedBy: l.providedBy,
  }));

/** Every provider a line names for its minutes is a provider of the organisation (treatments.<i>.providedBy.<j>.userId). */
async function assertProvidersKnown(
  r: SoapServiceRepositories,
  organisationId: number,
  lines: readonly TreatmentLine[],
) {
  const issues: ValidationIssue[] = [];
  const known = new Map<number, boolean>();
  for (const [i, line] of lines.entries())
    for (const [j, p] of (line.providedBy ?? []).entries()) {
      if (!known.has(p.userId))
        known.set(p.userId, (await r.organisations.findProvider(organisationId, p.userId)) !== undefined);
      if (!known.get(p.userId))
        issues.push({
          field: `treatments.${i}.providedBy.${j}.userId`,
          reason: "is not a provider of the organisation",
          value: p.userId,
        });
    }
  if (issues.length) throw DomainError.validation(issues);
}

const sheetNotFound = (id: unknown) =>
  soapError("TREATMENT_SHEET_NOT_FOUND", "Treatment sheet not found", { sheet_id: id });

/** The organisation's catalog by billing-code id (inactive codes included, so old sheets still read). */
export async function catalogById(
  r: SoapServiceRepositories,
  organisationId: number,
): Promise<Map<number, BillingCode>> {
  return new Map((await r.billingCodes.list(organisationId)).map((c) => [c.id, c]));
}

/** A sheet with the units the organisation's billing rule supports per line; `catalog` when the caller has read it already. */
export async function assessedSheet(
  r: SoapServiceRepositories,
  sheet: TreatmentSheet,
  catalog?: ReadonlyMap<number, BillingCode>,
): Promise<{ sheet: TreatmentSheet; assessment: TreatmentSheetAssessment }> {
  const [settings, codes] = await Promise.all([
    documentationSettingsOf(r, sheet.organisationId),
    catalog ?? catalogById(r, sheet.organisationId),
  ]);
  return { sheet, assessment: assessTreatments(settings.billingUnitRule, sheet.treatments, codes) };
}

/**
 * The Medicare therapy rules over an open note's sheet, read after its write committed (outside the transaction,
 * so the pool reads them side by side); null for a visit not billed to Medicare Part B, or a completed note (its
 * lines were counted at completion: a check would count them twice).
 */
async function withMedicare(
  r: SoapServiceRepositories,
  note: SoapNote,
  assessed: { sheet: TreatmentSheet; assessment: TreatmentSheetAssessment },
): Promise<AssessedTreatmentSheet> {
  // Read after the write's commit, outside any transaction: a plain read of the ledger, never waiting for a lock.
  const medicare = note.completed
    ? undefined
    : await visitThresholdCheck(r, note, visitLinesOf(assessed.assessment), "plain");
  return { ...assessed, medicare: medicare ?? null };
}

/**
 * Treatment sheets (spec 2.3, 4.1): one per note, its lines checked against
 * the organisation's catalog. Units are not refused here (the response says
 * what the rule supports, for the client to show); over-billing blocks signing
 * and completion instead.
 */
export class TreatmentSheetService {
  constructor(private readonly deps: { storage: Storage<SoapServiceRepositories>; clock: Clock }) {}

  async create(
    principal: Principal,
    input: { patientId: number; contextId: string; treatments: readonly TreatmentLineInput[] },
  ): Promise<AssessedTreatmentSheet> {
    const orgId = principal.organisationId;
    const now = this.deps.clock.now();
    const written = await this.deps.storage.transaction(async (tx) => {
      const note = await lockedNote(tx, principal, input.contextId);
      if (note.patientId !== input.patientId)
        throw DomainError.validation([
          { field: "patientId", reason: "is not the patient of the note", value: String(input.patientId) },
        ]);
      assertNoteEditable(note, "WRITE_TREATMENT_SHEET");
      const existing = await tx.treatmentSheets.findByContextId(orgId, note.contextId);
      if (existing) {
        throw soapError(
          "TREATMENT_SHEET_EXISTS",
          `The note already has treatment sheet ${existing.id}; replace its treatments instead`,
          { context_id: note.contextId, treatment_sheet_id: existing.id },
        );
      }
      const catalog = await catalogById(tx, orgId);
      const treatments = normaliseTreatments(input.treatments, catalog);
      await assertProvidersKnown(tx, orgId, treatments);
      const sheet = await tx.treatmentSheets.insert({
        organisationId: orgId,
        contextId: note.contextId,
        patientId: note.patientId,
        treatments,
        createdAt: now,
        updatedAt: now,
      });
      // The note lock serialises creators, so a duplicate here means the unique key caught a writer outside it.
      if (!sheet)
        throw soapError("TREATMENT_SHEET_EXISTS", "The note already has a treatment sheet", {
          context_id: note.contextId,
        });
      await tx.soapNotes.updateNote(orgId, note.contextId, { treatmentSheetId: sheet.id, updatedAt: now });
      await tx.soapNotes.appendHistory({
        organisationId: orgId,
        contextId: note.contextId,
        action: "CREATE_TREATMENT_SHEET",
        fromStatus: note.status,
        toStatus: note.status,
        actorUserId: principal.userId,
        at: now,
        details: { treatment_sheet_id: sheet.id, lines: treatments.length },
      });
      return { note, assessed: await assessedSheet(tx, sheet, catalog) };
    });
    return withMedicare(this.deps.storage.repositories, written.note, written.assessed);
  }

  /** Replaces the sheet's lines (spec 4.1: the body is the same treatments array). */
  async replace(
    principal: Principal,
    sheetId: number,
    treatments: readonly TreatmentLineInput[],
  ): Promise<AssessedTreatmentSheet> {
    const orgId = principal.organisationId;
    const now = this.deps.clock.now();
    const written = await this.deps.storage.transaction(async (tx) => {
      const found = await tx.treatmentSheets.findById(orgId, sheetId);
      if (!found) throw sheetNotFound(sheetId);
      const note = await lockedNote(tx, principal, found.contextId, () => sheetNotFound(sheetId));
      assertNoteEditable(note, "WRITE_TREATMENT_SHEET");
      const catalog = await catalogById(tx, orgId);
      const lines = normaliseTreatments(treatments, catalog);
      await assertProvidersKnown(tx, orgId, lines);
      await tx.treatmentSheets.replaceTreatments(orgId, sheetId, lines, now);
      await tx.soapNotes.appendHistory({
        organisationId: orgId,
        contextId: note.contextId,
        action: "UPDATE_TREATMENT_SHEET",
        fromStatus: note.status,
        toStatus: note.status,
        actorUserId: principal.userId,
        at: now,
        details: { treatment_sheet_id: sheetId, lines: lines.length },
      });
      return { note, assessed: await assessedSheet(tx, { ...found, treatments: lines, updatedAt: now }, catalog) };
    });
    return withMedicare(this.deps.storage.repositories, written.note, written.assessed);
  }

  async get(principal: Principal, sheetId: number): Promise<AssessedTreatmentSheet> {
    const r = this.deps.storage.repositories;
    const sheet = await r.treatmentSheets.findById(principal.organisationId, sheetId);
    if (!sheet) throw sheetNotFound(sheetId);
    const note = await existingNote(r, principal, sheet.contextId, () => sheetNotFound(sheetId));
    return withMedicare(r, note, await assessedSheet(r, sheet));
  }
}
