import { PAYMENT_MODES } from "./payment-mode.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { checkDate } from "../kernel/calendar-date.js";
import { ICD10_CODE, isPositiveId } from "../kernel/rule-checks.js";
import { INSURANCE_CARD_TYPES, TREATMENT_STATUSES, type CaseChanges, type IcdCode } from "./patient-case.js";

export const CASE_LIMITS = Object.freeze({
  titleMax: 200,
  textMax: 4000,
  maxIcdCodes: 50,
  maxBodyParts: 30,
  bodyPartMax: 100,
  maxTherapists: 50,
  maxVisits: 10_000,
});

const count = (v: unknown, max: number) => typeof v === "number" && Number.isInteger(v) && v >= 0 && v <= max;

/** Codes are compared and stored upper-case (m54.5 is M54.5); other fields are left as sent. */
export function normaliseIcdCodes(codes: IcdCode[] | undefined): IcdCode[] | undefined {
  return codes?.map((c) => (typeof c?.code === "string" ? { ...c, code: c.code.trim().toUpperCase() } : c));
}

/** Case input with its ICD codes normalised. */
export function normaliseCaseInput<T extends CaseChanges>(input: T): T {
  return {
    ...input,
    icdCodes: normaliseIcdCodes(input.icdCodes),
    treatingIcdCodes: normaliseIcdCodes(input.treatingIcdCodes),
  };
}

export function checkIcdCodes(issues: ValidationIssue[], field: string, codes: IcdCode[] | undefined): void {
  if (codes === undefined) return;
  if (codes.length > CASE_LIMITS.maxIcdCodes)
    issues.push({ field, reason: `must list at most ${CASE_LIMITS.maxIcdCodes} codes` });
  const seen = new Set<string>();
  codes.forEach((c, i) => {
    if (!isPositiveId(c.id))
      issues.push({ field: `${field}.${i}.id`, reason: "must be a non-null, non-zero id", value: c.id });
    if (typeof c.code !== "string" || !ICD10_CODE.test(c.code))
      issues.push({ field: `${field}.${i}.code`, reason: "must be an ICD-10 code such as M54.5", value: c.code });
    else if (seen.has(c.code)) issues.push({ field: `${field}.${i}.code`, reason: "is listed twice", value: c.code });
    else seen.add(c.code);
    if (c.revision !== "ICD10")
      issues.push({ field: `${field}.${i}.revision`, reason: "must be ICD10", value: c.revision });
  });
}

/** Shape rules of a case draft or change that need no store; throws VALIDATION_FAILED listing every issue. */
export function assertValidCaseInput(input: CaseChanges & { patientId?: number }, creating: boolean): void {
  const issues: ValidationIssue[] = [];
  if (creating && !isPositiveId(input.patientId))
    issues.push({ field: "patientId", reason: "must be a positive integer", value: input.patientId });
  if (
    (creating || input.caseTitle !== undefined) &&
    (typeof input.caseTitle !== "string" ||
      input.caseTitle.trim() === "" ||
      input.caseTitle.length > CASE_LIMITS.titleMax)
  ) {
    issues.push({ field: "caseTitle", reason: `must be 1 to ${CASE_LIMITS.titleMax} characters` });
  }
  if (
    (creating || input.specialization !== undefined) &&
    (typeof input.specialization !== "string" || input.specialization.trim() === "")
  )
    issues.push({ field: "specialization", reason: "must not be empty" });
  for (const rank of ["primary", "secondary", "tertiary"] as const) {
    const id = input.referrals?.[rank];
    if (id !== undefined && id !== null && !isPositiveId(id))
      issues.push({ field: `referrals.${rank}`, reason: "must be a non-null, non-zero id", value: id });
  }
  checkIcdCodes(issues, "icdCodes", input.icdCodes);
  checkIcdCodes(issues, "treatingIcdCodes", input.treatingIcdCodes);
  for (const f of ["treatmentStartDate", "dateOfInjury", "dateOfSurgery"] as const) checkDate(issues, f, input[f]);
  if (input.numberOfPastVisits !== undefined && !count(input.numberOfPastVisits, CASE_LIMITS.maxVisits))
    issues.push({ field: "numberOfPastVisits", reason: `must be an integer from 0 to ${CASE_LIMITS.maxVisits}` });
  if (input.caseVisitLimit !== undefined && !count(input.caseVisitLimit, CASE_LIMITS.maxVisits))
    issues.push({
      field: "caseVisitLimit",
      reason: `must be an integer from 0 to ${CASE_LIMITS.maxVisits} (0: no limit)`,
    });
  if (input.treatmentStatus !== undefined && !TREATMENT_STATUSES.includes(input.treatmentStatus))
    issues.push({ field: "treatmentStatus", reason: "must be ACTIVE or DISCHARGED", value: input.treatmentStatus });
  if (input.paymentMode != null && !PAYMENT_MODES.includes(input.paymentMode))
    issues.push({
      field: "paymentMode",
      reason: `must be one of ${PAYMENT_MODES.join(", ")}`,
      value: input.paymentMode,
    });
  const cards = input.insuranceCards ?? [];
  cards.forEach((c, i) => {
    if (!isPositiveId(c.insuranceCardId))
      issues.push({
        field: `insuranceCards.${i}.insuranceCardId`,
        reason: "must be a positive integer",
        value: c.insuranceCardId,
      });
    if (!INSURANCE_CARD_TYPES.includes(c.insuranceCardType))
      issues.push({
        field: `insuranceCards.${i}.insuranceCardType`,
        reason: "is required: PRIMARY, SECONDARY or TERTIARY",
        value: c.insuranceCardType,
      });
  });
  if (new Set(cards.map((c) => c.insuranceCardType)).size !== cards.length)
    issues.push({ field: "insuranceCards", reason: "must not use a card type twice" });
  if (new Set(cards.map((c) => c.insuranceCardId)).size !== cards.length)
    issues.push({ field: "insuranceCards", reason: "must not list a card twice" });
  const parts = input.affectedBodyParts;
  if (
    parts !== undefined &&
    (parts.length > CASE_LIMITS.maxBodyParts ||
      parts.some((p) => typeof p !== "string" || p.trim() === "" || p.length > CASE_LIMITS.bodyPartMax))
  ) {
    issues.push({
      field: "affectedBodyParts",
      reason: `must list at most ${CASE_LIMITS.maxBodyParts} non-empty names of at most ${CASE_LIMITS.bodyPartMax} characters`,
    });
  }
  if (
    input.therapistIds !== undefined &&
    (input.therapistIds.length > CASE_LIMITS.maxTherapists || !input.therapistIds.every(isPositiveId))
  )
    issues.push({ field: "therapistIds", reason: "must list positive user ids" });
  for (const f of ["frequencyAndDuration", "bodyPainNotes"] as const) {
    const v = input[f];
    if (v != null && v.length > CASE_LIMITS.textMax)
      issues.push({ field: f, reason: `must be at most ${CASE_LIMITS.textMax} characters` });
  }
  if (issues.length > 0) throw DomainError.validation(issues);
}
