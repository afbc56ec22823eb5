import type { Patch } from "../kernel/patch.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { isCalendarDate } from "../kernel/calendar-date.js";
import { PATIENT_STATUSES, SEXES, type Patient, type PatientChanges, type PatientDraft } from "./patient.js";

const NAME_MAX = 100;
const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;
const PHONE_CHARS = /^[+\d\s().-]+$/;
const STATE = /^[A-Z]{2}$/;
const COUNTRY = /^[A-Z]{2}$/;
const POSTAL = /^[A-Za-z0-9 -]{3,10}$/;
const EARLIEST_BIRTH = "1900-01-01";

function checkRequiredName(issues: ValidationIssue[], field: string, value: unknown): void {
  if (typeof value !== "string" || value.trim() === "")
    issues.push({ field, reason: "is required and must not be blank" });
  else if (value.trim().length > NAME_MAX) issues.push({ field, reason: `must be at most ${NAME_MAX} characters` });
}

function checkOptionalText(
  issues: ValidationIssue[],
  field: string,
  value: unknown,
  max: number,
  pattern?: RegExp,
  hint?: string,
): void {
  if (value === undefined || value === null) return;
  if (typeof value !== "string") return void issues.push({ field, reason: "must be a string" });
  if (value.length > max) return void issues.push({ field, reason: `must be at most ${max} characters` });
  if (pattern && !pattern.test(value)) issues.push({ field, reason: hint ?? "has an invalid format", value });
}

function checkPhone(issues: ValidationIssue[], field: string, value: unknown): void {
  checkOptionalText(issues, field, value, 30, PHONE_CHARS, "must contain only digits, spaces and + ( ) . -");
  if (typeof value === "string" && PHONE_CHARS.test(value)) {
    const digits = value.replace(/\D/g, "").length;
    if (digits < 7 || digits > 15) issues.push({ field, reason: "must have between 7 and 15 digits", value });
  }
}

function checkDateOfBirth(issues: ValidationIssue[], value: unknown, today: string): void {
  if (typeof value !== "string" || !isCalendarDate(value)) {
    issues.push({ field: "dateOfBirth", reason: "must be a calendar date YYYY-MM-DD", value });
  } else if (value > today) {
    issues.push({ field: "dateOfBirth", reason: "must not be in the future", value });
  } else if (value < EARLIEST_BIRTH) {
    issues.push({ field: "dateOfBirth", reason: `must not be before ${EARLIEST_BIRTH}`, value });
  }
}

/** Checks every optional field present in a draft or a change set. */
function checkOptionalFields(issues: ValidationIssue[], input: PatientChanges): void {
  checkOptionalText(issues, "middleName", input.middleName, NAME_MAX);
  if (input.sex !== undefined && !SEXES.includes(input.sex))
    issues.push({ field: "sex", reason: `must be one of ${SEXES.join(", ")}`, value: input.sex });
  if (input.status !== undefined && !PATIENT_STATUSES.includes(input.status))
    issues.push({ field: "status", reason: `must be one of ${PATIENT_STATUSES.join(", ")}`, value: input.status });
  checkOptionalText(issues, "email", input.email, 254, EMAIL, "must be an email address");
  checkPhone(issues, "phone", input.phone);
  if (
    input.clinicId !== undefined &&
    input.clinicId !== null &&
    (!Number.isInteger(input.clinicId) || input.clinicId <= 0)
  ) {
    issues.push({ field: "clinicId", reason: "must be a positive integer", value: input.clinicId });
  }
  const a = input.address ?? {};
  checkOptionalText(issues, "address.line1", a.line1, 200);
  checkOptionalText(issues, "address.line2", a.line2, 200);
  checkOptionalText(issues, "address.city", a.city, 100);
  checkOptionalText(issues, "address.state", a.state, 2, STATE, "must be a 2-letter upper-case code");
  checkOptionalText(
    issues,
    "address.postalCode",
    a.postalCode,
    10,
    POSTAL,
    "must be 3 to 10 letters, digits, spaces or dashes",
  );
  checkOptionalText(issues, "address.country", a.country, 2, COUNTRY, "must be an ISO 3166-1 alpha-2 code");
  const e = input.emergencyContact ?? {};
  checkOptionalText(issues, "emergencyContact.name", e.name, 200);
  checkOptionalText(issues, "emergencyContact.relationship", e.relationship, 50);
  checkPhone(issues, "emergencyContact.phone", e.phone);
  const i = input.insurance ?? {};
  checkOptionalText(issues, "insurance.provider", i.provider, 200);
  checkOptionalText(issues, "insurance.policyNumber", i.policyNumber, 50);
  checkOptionalText(issues, "insurance.groupNumber", i.groupNumber, 50);
}

/** Validates a registration; throws VALIDATION_FAILED naming every bad field. `today` is YYYY-MM-DD in UTC. */
export function assertValidPatientDraft(draft: PatientDraft, today: string): void {
  const issues: ValidationIssue[] = [];
  checkRequiredName(issues, "firstName", draft.firstName);
  checkRequiredName(issues, "lastName", draft.lastName);
  checkDateOfBirth(issues, draft.dateOfBirth, today);
  checkOptionalFields(issues, draft);
  if (issues.length > 0) throw DomainError.validation(issues);
}

/** Validates a partial update the same way; required fields may be omitted but not blanked. */
export function assertValidPatientChanges(changes: PatientChanges, today: string): void {
  const issues: ValidationIssue[] = [];
  if (changes.firstName !== undefined) checkRequiredName(issues, "firstName", changes.firstName);
  if (changes.lastName !== undefined) checkRequiredName(issues, "lastName", changes.lastName);
  if (changes.dateOfBirth !== undefined) checkDateOfBirth(issues, changes.dateOfBirth, today);
  checkOptionalFields(issues, changes);
  if (issues.length > 0) throw DomainError.validation(issues);
}

const trimOrNull = (v: string | null | undefined): string | null => (v == null || v.trim() === "" ? null : v.trim());

/** Applies a validated draft onto defaults, producing the stored shape (trimmed, nulls for absent values). */
export function patientFromDraft(draft: PatientDraft, organisationId: number, now: Date): Omit<Patient, "id"> {
  return {
    organisationId,
    clinicId: draft.clinicId ?? null,
    firstName: draft.firstName.trim(),
    middleName: trimOrNull(draft.middleName),
    lastName: draft.lastName.trim(),
    dateOfBirth: draft.dateOfBirth,
    sex: draft.sex ?? "UNDEFINED",
    phone: trimOrNull(draft.phone),
    email: trimOrNull(draft.email)?.toLowerCase() ?? null,
    address: {
      line1: trimOrNull(draft.address?.line1),
      line2: trimOrNull(draft.address?.line2),
      city: trimOrNull(draft.address?.city),
      state: trimOrNull(draft.address?.state),
      postalCode: trimOrNull(draft.address?.postalCode),
      country: trimOrNull(draft.address?.country) ?? "US",
    },
    emergencyContact: {
      name: trimOrNull(draft.emergencyContact?.name),
      relationship: trimOrNull(draft.emergencyContact?.relationship),
      phone: trimOrNull(draft.emergencyContact?.phone),
    },
    insurance: {
      provider: trimOrNull(draft.insurance?.provider),
      policyNumber: trimOrNull(draft.insurance?.policyNumber),
      groupNumber: trimOrNull(draft.insurance?.groupNumber),
    },
    status: draft.status ?? "active",
    createdAt: now,
    updatedAt: now,
  };
}

/** `current` with the fields `patch` sets; a field the patch leaves undefined keeps its value. */
function mergeDefined<T extends object>(current: T, patch: Patch<T> | undefined): T {
  const set = Object.entries(patch ?? {}).filter(([, value]) => value !== undefined);
  return { ...current, ...Object.fromEntries(set) };
}

/** Merges a validated change set into the current patient (nested objects merge field by field). */
export function applyPatientChanges(current: Patient, changes: PatientChanges, now: Date): Patient {
  const merged: PatientDraft = {
    clinicId: changes.clinicId !== undefined ? changes.clinicId : current.clinicId,
    firstName: changes.firstName ?? current.firstName,
    middleName: changes.middleName !== undefined ? changes.middleName : current.middleName,
    lastName: changes.lastName ?? current.lastName,
    dateOfBirth: changes.dateOfBirth ?? current.dateOfBirth,
    sex: changes.sex ?? current.sex,
    phone: changes.phone !== undefined ? changes.phone : current.phone,
    email: changes.email !== undefined ? changes.email : current.email,
    address: changes.address === null ? {} : mergeDefined(current.address, changes.address),
    emergencyContact:
      changes.emergencyContact === null ? {} : mergeDefined(current.emergencyContact, changes.emergencyContact),
    insurance: changes.insurance === null ? {} : mergeDefined(current.insurance, changes.insurance),
    status: changes.status ?? current.status,
  };
  return { ...patientFromDraft(merged, current.organisationId, current.createdAt), id: current.id, updatedAt: now };
}
