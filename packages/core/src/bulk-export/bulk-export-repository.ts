import type { Appointment, AppointmentStatus } from "../appointments/appointment.js";
import type { InsuranceCard } from "../coverages/coverage.js";
import type { PatientDocument } from "../documents/patient-document.js";
import type { Patient } from "../patients/patient.js";
import type { SoapNote } from "../soap/soap-note.js";
import type { BulkExport, BulkExportCursor, BulkExportFile, BulkExportStatus } from "./bulk-export.js";

/** The exports of every organisation; every method but the purge's and the sweep's is scoped by organisation. */
export interface BulkExportRepository {
  insert(e: BulkExport): Promise<void>;
  /** The export with its files (in manifest order), or undefined. */
  findById(organisationId: number, id: string): Promise<BulkExport | undefined>;
  /** Exports of the organisation queued or running. */
  countActive(organisationId: number): Promise<number>;
  /**
   * Writes the export's status, cursor, count, error and times when its status and cursor are still `expected`
   * (compare-and-set: a cancel between a slice's start and its commit wins, and a worker that lost its job's lease
   * cannot move the cursor back); true when it did.
   */
  update(e: BulkExport, expected: { status: BulkExportStatus; cursor: BulkExportCursor }): Promise<boolean>;
  /** Marks the export cancelled, expiring `now`, when its status is one of `from`; true when it did. */
  cancel(organisationId: number, id: string, from: readonly BulkExportStatus[], now: Date): Promise<boolean>;
  /** Exports queued or running whose last change is before `before`, any organisation, oldest first. */
  stalled(before: Date, limit: number): Promise<BulkExport[]>;
  /** Takes the organisation's row lock until the transaction ends (kick-offs are counted one at a time). */
  lockOrganisation(organisationId: number): Promise<void>;
  addFile(organisationId: number, exportId: string, file: BulkExportFile): Promise<void>;
  /** Exports whose expiry has passed, any organisation, oldest first, with their files. */
  expired(now: Date, limit: number): Promise<BulkExport[]>;
  /** Removes the export and its file rows. */
  remove(organisationId: number, id: string): Promise<void>;
  /** The keys among `storageKeys` some export file names (the document store's orphan sweep keeps them). */
  storageKeysInUse(storageKeys: readonly string[]): Promise<Set<string>>;
}

/** One keyset page: rows of ids above `afterId`, in id order, changed after `since` when given. */
export interface ExportPage {
  organisationId: number;
  afterId: number;
  limit: number;
  since: Date | null;
}

/**
 * The export's reads over the other domains' tables, by id keyset so that a page costs the same at any depth
 * (an offset would read every skipped row again). The same records the v1/v2 and FHIR reads answer.
 */
export interface BulkExportSource {
  patients(page: ExportPage): Promise<Patient[]>;
  /** Insurance cards not deleted. */
  insuranceCards(page: ExportPage): Promise<InsuranceCard[]>;
  /** Appointments with their category ids, at the clinics given (null: any), of the statuses given (null: any). */
  appointments(
    page: ExportPage & { inClinics: readonly number[] | null; statuses: readonly AppointmentStatus[] | null },
  ): Promise<Appointment[]>;
  /**
   * Completed notes other than addenda (their Assessments' diagnoses are the Conditions), at the clinics given
   * (null: any); `since` by completion.
   */
  completedNotes(page: ExportPage & { inClinics: readonly number[] | null }): Promise<SoapNote[]>;
  /** Patient documents not deleted, at the clinics given or of no clinic (null: any). */
  patientDocuments(page: ExportPage & { inClinics: readonly number[] | null }): Promise<PatientDocument[]>;
}
