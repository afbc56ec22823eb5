import { digitsOnly, foldForMatch } from "../kernel/text-match.js";
import type { Patient, PatientRecord } from "./patient.js";

/** The duplicate-registration key: same folded first name, last name and date of birth. */
export function patientIdentityKey(firstName: string, lastName: string, dateOfBirth: string): string {
  return `${foldForMatch(firstName)}|${foldForMatch(lastName)}|${dateOfBirth}`;
}

/** The text `search` matches against: names, email and the phone's digits. */
export function patientSearchText(
  p: Pick<Patient, "firstName" | "middleName" | "lastName" | "email" | "phone">,
): string {
  const parts = [p.firstName, p.middleName ?? "", p.lastName, p.email ?? ""].map(foldForMatch);
  const phone = p.phone ? digitsOnly(p.phone) : "";
  return [...parts, phone].filter(Boolean).join(" ");
}

export function toPatientRecord(p: Omit<Patient, "id">): PatientRecord {
  return {
    ...p,
    identityKey: patientIdentityKey(p.firstName, p.lastName, p.dateOfBirth),
    searchText: patientSearchText(p),
    firstNameSort: foldForMatch(p.firstName),
    lastNameSort: foldForMatch(p.lastName),
  };
}
