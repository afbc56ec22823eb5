import type { Patient, PatientRecord, PatientStatus } from "./patient.js";

export const PATIENT_SORT_FIELDS = ["created_at", "updated_at", "last_name", "first_name"] as const;
export type PatientSortField = (typeof PATIENT_SORT_FIELDS)[number];

/** What the list query asks the store for; all bounds already validated by the core. */
export interface PatientListCriteria {
  organisationId: number;
  /** Folded terms; every term must occur in the patient's search text (substring, AND). */
  searchTerms: string[];
  /** Inclusive lower bounds and exclusive upper bounds on the timestamps. */
  createdFrom?: Date | undefined;
  createdBefore?: Date | undefined;
  updatedFrom?: Date | undefined;
  updatedBefore?: Date | undefined;
  status: PatientStatus | "all";
  sort: PatientSortField;
  order: "asc" | "desc";
  limit: number;
  offset: number;
  /**
   * When set, the repository may stop counting after `countLimit + 1` matches:
   * `total` is then exact up to `countLimit` and at least `countLimit + 1`
   * above it. Counting every match of a common search term is the slowest part
   * of a search on a large organisation (docs/performance.md).
   */
  countLimit?: number | undefined;
}

export type InsertPatientResult = { created: true; patient: Patient } | { created: false; patient: Patient };

/** Patients of every organisation. Every method is scoped by organisation id: a row of another organisation is invisible. */
export interface PatientRepository {
  /**
   * Inserts the patient unless one with the same `identityKey` exists in the
   * organisation. Uniqueness is enforced by a unique index, so concurrent
   * callers registering the same person see exactly one `created: true`; the
   * others get the existing patient, read as last committed even inside a
   * transaction whose snapshot predates the winner (MariaDB's REPEATABLE READ).
   * Never throws for the duplicate case, and does not abort an enclosing
   * transaction. Inside `Storage.transaction` an engine may answer
   * `created: true` before the database has checked the key, sending the insert
   * with the commit; a duplicate then fails the commit and the storage runs the
   * transaction again, where this method answers `created: false` (see
   * `Storage`).
   */
  insertIfAbsent(record: PatientRecord): Promise<InsertPatientResult>;

  /** The patient, or undefined when absent in this organisation. Driver errors propagate; they are never "not found". */
  findById(organisationId: number, id: number): Promise<Patient | undefined>;

  /**
   * Replaces the stored patient `id` with `record` (all columns but id,
   * organisation and created_at). Returns `conflict` with the other patient's
   * id (null when only the index caught a concurrent clash) when the new identity
   * key collides with another patient (enforced by the
   * unique index; nothing is written), `missing` when the row is gone.
   * Concurrency: of concurrent replaces giving several patients one identity,
   * one is `updated`, the others `conflict`; the refused update leaves an
   * enclosing transaction usable.
   */
  replace(
    id: number,
    record: PatientRecord,
  ): Promise<
    | { outcome: "updated"; patient: Patient }
    | { outcome: "conflict"; existingId: number | null }
    | { outcome: "missing" }
  >;

  /**
   * One page in the requested order (ties broken by id in the same direction)
   * and the count of matches (bounded by `countLimit` when set, see above).
   */
  list(criteria: PatientListCriteria): Promise<{ patients: Patient[]; total: number }>;
}
