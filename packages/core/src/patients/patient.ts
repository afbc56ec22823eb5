import type { Patch } from "../kernel/patch.js";
export const SEXES = ["MALE", "FEMALE", "OTHER", "UNDEFINED"] as const;
export type Sex = (typeof SEXES)[number];

export const PATIENT_STATUSES = ["active", "inactive"] as const;
export type PatientStatus = (typeof PATIENT_STATUSES)[number];

export interface PatientAddress {
  line1: string | null;
  line2: string | null;
  city: string | null;
  /** Two-letter state or province code. */
  state: string | null;
  postalCode: string | null;
  /** ISO 3166-1 alpha-2 country code. */
  country: string | null;
}

export interface EmergencyContact {
  name: string | null;
  relationship: string | null;
  phone: string | null;
}

export interface PatientInsuranceSummary {
  provider: string | null;
  policyNumber: string | null;
  groupNumber: string | null;
}

/**
 * A patient as the domain knows it. v1 and v2 are two wire views of this one
 * record (packages/http maps the names).
 */
export interface Patient {
  id: number;
  organisationId: number;
  clinicId: number | null;
  firstName: string;
  middleName: string | null;
  lastName: string;
  /** Calendar date, YYYY-MM-DD. */
  dateOfBirth: string;
  sex: Sex;
  phone: string | null;
  email: string | null;
  address: PatientAddress;
  emergencyContact: EmergencyContact;
  insurance: PatientInsuranceSummary;
  status: PatientStatus;
  createdAt: Date;
  updatedAt: Date;
}

/** What a caller supplies to register a patient. Omitted optional fields are stored as null. */
export interface PatientDraft {
  clinicId?: number | null | undefined;
  firstName: string;
  middleName?: string | null | undefined;
  lastName: string;
  dateOfBirth: string;
  sex?: Sex | undefined;
  phone?: string | null | undefined;
  email?: string | null | undefined;
  address?: Partial<PatientAddress> | null | undefined;
  emergencyContact?: Partial<EmergencyContact> | null | undefined;
  insurance?: Partial<PatientInsuranceSummary> | null | undefined;
  status?: PatientStatus | undefined;
}

/** A partial update: omitted fields keep their values, null clears an optional field. */
export type PatientChanges = Patch<Omit<PatientDraft, "address" | "emergencyContact" | "insurance">> & {
  address?: Patch<PatientAddress> | null | undefined;
  emergencyContact?: Patch<EmergencyContact> | null | undefined;
  insurance?: Patch<PatientInsuranceSummary> | null | undefined;
};

/** The row the storage port persists: the patient plus derived columns the store indexes. */
export interface PatientRecord extends Omit<Patient, "id"> {
  /** Normalised "first|last|dob": unique per organisation (duplicate registration check, enforced by the database). */
  identityKey: string;
  /** Lower-cased names, email and phone digits, for `search`. */
  searchText: string;
  /** Folded names (no case, no accents), so sorting by name is alphabetical in every engine. */
  firstNameSort: string;
  lastNameSort: string;
}
