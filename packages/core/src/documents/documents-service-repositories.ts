import type { AppointmentRepository } from "../appointments/appointment-repository.js";
import type { AuditRepository } from "../audit/audit-repository.js";
import type { CaseRepository } from "../cases/case-repository.js";
import type { JobQueue } from "../kernel/job-queue.js";
import type { OutboxRepository } from "../kernel/outbox-repository.js";
import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { PatientRepository } from "../patients/patient-repository.js";
import type { PatientDocumentRepository } from "./patient-document-repository.js";

/**
 * Where a visit summary's bytes are read: the SOAP summaries' own repository, named here by the one method documents
 * use, so this folder does not import soap's (soap lists its summaries here, which is the import that stays).
 */
export interface RenderedSummaries {
  get(
    organisationId: number,
    contextId: string,
    variant: "full",
  ): Promise<{ readonly content: Uint8Array; readonly contentType: string } | undefined>;
}

/**
 * Other records whose bytes share the document store (a bulk export's NDJSON files): the orphan sweep keeps the
 * objects they name. Named by the one method the sweep uses, so this folder does not import bulk-export's port.
 */
export interface StoredObjectOwners {
  storageKeysInUse(storageKeys: readonly string[]): Promise<Set<string>>;
}

/** The repositories patient documents read and write through: each a port of the feature that owns it. */
export interface DocumentServiceRepositories {
  patientDocuments: PatientDocumentRepository;
  patients: PatientRepository;
  cases: CaseRepository;
  appointments: AppointmentRepository;
  soapDocuments: RenderedSummaries;
  organisations: OrganisationRepository;
  outbox: OutboxRepository;
  jobs: JobQueue;
  audit: AuditRepository;
  bulkExports: StoredObjectOwners;
}
