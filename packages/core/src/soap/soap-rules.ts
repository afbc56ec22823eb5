import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { ICD10_CODE, isPositiveId } from "../kernel/rule-checks.js";
import { SOAP_NOTE_TYPES, SUBTYPE_OVERRIDES, type SoapNoteDraft, type SoapNoteType } from "./soap-note.js";

/** The type to store: attributes.subType overrides the sent type (spec 4.1 rule 1). */
export function effectiveNoteType(draft: Pick<SoapNoteDraft, "type" | "attributes">): SoapNoteType {
  const override = draft.attributes?.subType ? SUBTYPE_OVERRIDES[draft.attributes.subType] : undefined;
  return override ?? (draft.type as SoapNoteType);
}

/** Shape rules of a note request that need no store; throws VALIDATION_FAILED listing every issue. */
export function assertValidNoteDraft(d: SoapNoteDraft): void {
  const issues: ValidationIssue[] = [];
  if (!Number.isSafeInteger(d.patientId) || d.patientId <= 0)
    issues.push({ field: "patientId", reason: "must be a positive integer", value: d.patientId });
  if (!(SOAP_NOTE_TYPES as readonly string[]).includes(d.type))
    issues.push({ field: "type", reason: `must be one of ${SOAP_NOTE_TYPES.join(", ")}`, value: d.type });
  const subType = d.attributes?.subType;
  if (subType !== undefined && subType !== null && !(subType in SUBTYPE_OVERRIDES))
    issues.push({
      field: "attributes.subType",
      reason: `must be one of ${Object.keys(SUBTYPE_OVERRIDES).join(", ")}`,
      value: subType,
    });
  const withoutAppointment = !d.appointmentId;
  if (withoutAppointment && !d.soapWithoutAppointment)
    issues.push({ field: "appointmentId", reason: "is required unless soap_without_appointment is true" });
  if (!withoutAppointment && d.soapWithoutAppointment)
    issues.push({ field: "soapWithoutAppointment", reason: "must be false when an appointment_id is given" });
  if (effectiveNoteType(d) === "ADDENDUM" && !d.parent)
    issues.push({
      field: "parent",
      reason: "is required for an ADDENDUM: the context_id of a COMPLETED note of the same patient",
    });
  if (d.parent && effectiveNoteType(d) !== "ADDENDUM")
    issues.push({ field: "parent", reason: "is only allowed on an ADDENDUM" });
  if (issues.length) throw DomainError.validation(issues);
}

/** Spec 2.2: every medical_diagnosis entry under response.Assessment.<key>. */
export function assertValidAssessment(response: Record<string, unknown>): void {
  const assessment = response.Assessment;
  if (assessment === undefined) return;
  const issues: ValidationIssue[] = [];
  if (assessment === null || typeof assessment !== "object" || Array.isArray(assessment)) {
    throw DomainError.validation([
      { field: "partialResponse.response.Assessment", reason: "must be an object keyed by form-section key" },
    ]);
  }
  for (const [key, section] of Object.entries(assessment)) {
    const at = `partialResponse.response.Assessment.${key}`;
    if (section === null || typeof section !== "object" || Array.isArray(section)) {
      issues.push({
        field: at,
        reason: "must be an object with medical_diagnosis, treating_diagnosis and problem_list",
      });
      continue;
    }
    const s = section as Record<string, unknown>;
    if (s.medical_diagnosis !== undefined) {
      if (!Array.isArray(s.medical_diagnosis))
        issues.push({ field: `${at}.medical_diagnosis`, reason: "must be an array of diagnosis entries" });
      else {
        s.medical_diagnosis.forEach((e: any, i: number) => {
          const f = `${at}.medical_diagnosis.${i}`;
          if (!e || typeof e !== "object") return issues.push({ field: f, reason: "must be a diagnosis entry" });
          if (typeof e.uuid !== "string" || e.uuid === "")
            issues.push({ field: `${f}.uuid`, reason: "must be a non-empty string" });
          if (!isPositiveId(e.id))
            issues.push({ field: `${f}.id`, reason: "must be a non-null, non-zero id", value: e.id });
          if (typeof e.code !== "string" || !ICD10_CODE.test(e.code))
            issues.push({ field: `${f}.code`, reason: "must be an ICD-10 code such as M54.50", value: e.code });
          if (typeof e.description !== "string") issues.push({ field: `${f}.description`, reason: "must be a string" });
          if (e.revision !== "ICD10")
            issues.push({ field: `${f}.revision`, reason: "must be ICD10", value: e.revision });
          if (e.billing_type !== undefined && e.billing_type !== null && typeof e.billing_type !== "string")
            issues.push({ field: `${f}.billing_type`, reason: "must be a string or null" });
          if (e.is_primary !== undefined && e.is_primary !== null && typeof e.is_primary !== "boolean")
            issues.push({ field: `${f}.is_primary`, reason: "must be a boolean or null" });
          return undefined;
        });
      }
    }
    if (s.treating_diagnosis !== undefined && typeof s.treating_diagnosis !== "string")
      issues.push({ field: `${at}.treating_diagnosis`, reason: "must be a string" });
    if (s.problem_list !== undefined && !Array.isArray(s.problem_list))
      issues.push({ field: `${at}.problem_list`, reason: "must be an array" });
  }
  if (issues.length) throw DomainError.validation(issues);
}
