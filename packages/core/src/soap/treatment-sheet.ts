import type { CptModifier } from "../billing/billing-code.js";

/**
 * How an organisation checks the units billed for timed (15-minute) codes:
 * - `cms_8_minute` (default): the CMS total-time rule. The timed minutes of the
 *   visit are added up; 8-22 minutes support 1 unit, 23-37 support 2, and so on
 *   (every further 15 minutes one more). The units go to the codes by their full
 *   15-minute blocks first, then one each to the largest remainders.
 * - `per_code_midpoint`: each timed code on its own: 8-22 minutes 1 unit, 23-37 2, ...
 * - `none`: no check; the units sent are the units supported.
 * Untimed codes support one unit per line under the first two rules.
 */
export const BILLING_UNIT_RULES = ["cms_8_minute", "per_code_midpoint", "none"] as const;
export type BillingUnitRule = (typeof BILLING_UNIT_RULES)[number];
export const DEFAULT_BILLING_UNIT_RULE: BillingUnitRule = "cms_8_minute";

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
