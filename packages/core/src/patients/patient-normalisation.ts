import type { Patient, PatientRecord } from "./patient.js";

/** Case- and accent-insensitive form of a name or term, used for matching only (stored values keep their case). */
export function foldForMatch(value: string): string {
  return value
    .normalize("NFKD")
    .replace(/\p{Diacritic}/gu, "")
    .toLowerCase()
    .replace(/\s+/g, " ")
    .trim();
}

export function digitsOnly(value: string): string {
  return value.replace(/\D+/g, "");
}

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

/**
 * Splits a search string into terms that must all match (AND). A term that is
 * a phone number ("(555) 010-2030") becomes its digits so it matches however the
 * phone was written.
 */
export function searchTerms(search: string): string[] {
  return foldForMatch(search)
    .split(" ")
    .filter(Boolean)
    .map((term) => (/^[\d\s()+.-]+$/.test(term) && digitsOnly(term).length > 0 ? digitsOnly(term) : term));
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
