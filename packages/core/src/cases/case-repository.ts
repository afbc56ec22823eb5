import type { Authorization } from "./authorization.js";
import type { PatientCase } from "./patient-case.js";
import type { ReferringPhysician } from "./referring-physician.js";

export type CaseRecord = Omit<PatientCase, "id">;

/**
 * Cases, scoped by organisation. `lockForVisits` follows the booking contract of
 * AppointmentRepository.lockDoctorSchedule: called right after the doctor's
 * lock and before any read, it holds the case's row lock until the transaction
 * ends, so two bookings on one case count its visits one after the other.
 */
export interface CaseRepository {
  insert(record: CaseRecord): Promise<PatientCase>;
  findById(organisationId: number, id: number): Promise<PatientCase | undefined>;
  /** Writes every field but id, organisation, patient and createdAt. */
  update(c: PatientCase): Promise<void>;
  /** false when the organisation has no such case (nothing locked). */
  lockForVisits(organisationId: number, id: number): Promise<boolean>;
  /** A patient's cases, newest first. */
  listByPatient(organisationId: number, patientId: number): Promise<PatientCase[]>;
}

export type ReferringPhysicianRecord = Omit<ReferringPhysician, "id">;

export interface ReferringPhysicianRepository {
  /**
   * Inserts; `created: false` with the existing id when the organisation
   * already has a physician with this NPI (unique index; nothing written).
   * Concurrency: of concurrent inserts of one NPI exactly one is created; the
   * others name the winner (read as last committed). Never throws for the
   * duplicate, so an enclosing transaction stays usable.
   */
  insert(
    record: ReferringPhysicianRecord,
  ): Promise<{ created: true; physician: ReferringPhysician } | { created: false; existingId: number }>;
  findById(organisationId: number, id: number): Promise<ReferringPhysician | undefined>;
  /**
   * Replaces the stored fields; `updated: false` with the holder's id when the
   * new NPI belongs to another physician. Concurrency: of concurrent updates
   * giving several physicians one NPI, one wins and the others name it; the
   * refused update leaves an enclosing transaction usable.
   */
  update(p: ReferringPhysician): Promise<{ updated: true } | { updated: false; existingId: number }>;
  /** Physicians whose folded "first last npi" contains every term, by last name then id. */
  search(
    organisationId: number,
    terms: string[],
    limit: number,
    offset: number,
  ): Promise<{ physicians: ReferringPhysician[]; total: number }>;
}

export type AuthorizationRecord = Omit<Authorization, "id">;

export interface AuthorizationSearch {
  organisationId: number;
  /** Folded terms; every one must occur in the patient's search text. */
  patientTerms: string[];
  /** Case-insensitive substring of the reference number. */
  referenceNumber?: string | undefined;
  caseId?: number | undefined;
  limit: number;
  offset: number;
}

export interface AuthorizationRepository {
  insert(record: AuthorizationRecord): Promise<Authorization>;
  findById(organisationId: number, id: number): Promise<Authorization | undefined>;
  update(a: Authorization): Promise<void>;
  /** true when a row was deleted. */
  delete(organisationId: number, id: number): Promise<boolean>;
  /** The case's authorizations by effective start date, then id. */
  listByCase(organisationId: number, caseId: number): Promise<Authorization[]>;
  /** Newest first (id descending). */
  search(criteria: AuthorizationSearch): Promise<{ authorizations: Authorization[]; total: number }>;
}
