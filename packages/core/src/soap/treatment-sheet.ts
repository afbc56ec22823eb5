import type { BillingUnitRule } from "../organisations/billing-unit-rule.js";
import type { CptModifier } from "../billing/billing-code.js";

/** A modifier on a treatment line: the catalog's modifier as the line carries it (spec 2.3's modifier object). */
export type TreatmentModifier = CptModifier;

/** One line of a treatment sheet (spec 2.3's treatment object). */
export interface TreatmentLine {
  /** Id of the organisation's billing code (treatment class). */
  treatmentClassId: number;
  /** Minutes spent. */
  duration: number;
  /** Units billed. */
  units: number;
  modifiers: TreatmentModifier[];
  /**
   * Who furnished the line's minutes, when others than the rendering provider did (a therapy assistant, say):
   * providers by user id with their minutes; minutes not listed are the rendering provider's. Absent: all theirs.
   */
  providedBy?: ProvidedMinutes[] | undefined;
}

/** Minutes of a treatment line furnished by one provider. */
export interface ProvidedMinutes {
  userId: number;
  minutes: number;
}

/**
 * A line as a client sends it: the modifier is named by id (its code, when sent, must match the
 * catalog's); the stored line carries the catalog's modifier (normaliseTreatments).
 */
export interface TreatmentLineInput {
  treatmentClassId: number;
  duration: number;
  units: number;
  modifiers?: ReadonlyArray<{ cptModifierId: number; cptModifierCode?: string | null | undefined }> | undefined;
  providedBy?: ReadonlyArray<ProvidedMinutes> | null | undefined;
}

/** A note's treatment sheet: at most one per note. */
export interface TreatmentSheet {
  id: number;
  organisationId: number;
  contextId: string;
  patientId: number;
  treatments: TreatmentLine[];
  createdAt: Date;
  updatedAt: Date;
}

/** A line with what the catalog and the billing rule say of it. */
export interface AssessedTreatmentLine extends TreatmentLine {
  code: string;
  description: string;
  timed: boolean;
  /** The units the organisation's rule supports for this line. */
  supportedUnits: number;
  /** More units billed than supported: blocks completion. */
  overBilled: boolean;
}

export interface TreatmentSheetAssessment {
  rule: BillingUnitRule;
  totalTimedMinutes: number;
  totalUnits: number;
  totalSupportedUnits: number;
  /** Some line bills more than the rule supports. */
  overBilled: boolean;
  lines: AssessedTreatmentLine[];
}
