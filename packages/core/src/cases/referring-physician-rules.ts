import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { isValidNpi } from "../organisations/npi.js";
import type { ReferringPhysicianChanges } from "./referring-physician.js";

const NAME_MAX = 100;
const PHONE = /^[+\d\s().-]{7,30}$/;
const STATE = /^[A-Z]{2}$/;
const ZIP = /^\d{5}(-\d{4})?$/;

/** Rules of a physician draft (creating) or change; throws VALIDATION_FAILED listing every issue. */
export function assertValidReferringPhysician(input: ReferringPhysicianChanges, creating: boolean): void {
  const issues: ValidationIssue[] = [];
  for (const f of ["firstName", "lastName"] as const) {
    const v = input[f];
    if ((creating || v !== undefined) && (typeof v !== "string" || v.trim() === "" || v.length > NAME_MAX))
      issues.push({ field: f, reason: `must be 1 to ${NAME_MAX} characters` });
  }
  if (input.npi != null && !isValidNpi(input.npi))
    issues.push({ field: "npi", reason: "must be 10 digits with a valid check digit", value: input.npi });
  for (const f of ["phoneNumber", "faxNumber"] as const) {
    const v = input[f];
    if (v != null && !PHONE.test(v))
      issues.push({ field: f, reason: "must be a phone number of 7 to 30 digits, spaces, +, (, ), . or -", value: v });
  }
  if (input.state != null && !STATE.test(input.state))
    issues.push({ field: "state", reason: "must be a 2-letter upper-case state code", value: input.state });
  if (input.zip != null && !ZIP.test(input.zip))
    issues.push({ field: "zip", reason: "must be 5 digits or ZIP+4 (12345-6789)", value: input.zip });
  for (const f of ["address1", "address2", "city"] as const) {
    const v = input[f];
    if (v != null && v.length > 200) issues.push({ field: f, reason: "must be at most 200 characters" });
  }
  if (issues.length > 0) throw DomainError.validation(issues);
}
