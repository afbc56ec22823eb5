import { queueQuarantineChange } from "./quarantine-watch.js";
import type { Principal } from "../auth/principal.js";
import { clinicAccess } from "../auth/clinic-access.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { noteAuditedResource } from "../audit/audit-scope.js";
import type { Storage } from "../kernel/storage.js";
import { ensureOrganisation } from "../organisations/ensure-organisation.js";
import { patientError } from "../patients/patient-errors.js";
import type { SecretCipher } from "../webhooks/secret-cipher.js";
import type { DocumentServiceRepositories } from "./documents-service-repositories.js";
import { readSealedContent } from "./document-content-reader.js";
import { stageContent, type IntakeLimits } from "./document-intake.js";
import { newDocumentDataKey, newDocumentObjectKey, unwrapDataKey, wrapDataKey } from "./document-keys.js";
import { documentTransition, type DocumentTrigger } from "./document-status-transitions.js";
import type { ByteRange, ByteStream, DocumentStore } from "./document-store.js";
import type { MalwareScanner } from "./malware-scanner.js";
import { documentError } from "./patient-document-errors.js";
import { documentEvent } from "./patient-document-events.js";
import {
  assertValidDocumentMetadata,
  categoriesOf,
  DEFAULT_DOCUMENT_SETTINGS,
  DOCUMENT_LIMITS,
  documentSettingsIssues,
  type DocumentListQuery,
  type DocumentMetadataInput,
  type DocumentSettings,
  type PatientDocument,
} from "./patient-document.js";

/** The job queue that scans an upload (one job per document). */
export const DOCUMENT_SCAN_QUEUE = "documents.scan";

/** What an upload hands the service: the file's bytes as they arrive, what the client said of it, its fields. */
export interface DocumentUpload {
  content: ByteStream;
  fileName: string;
  /** The file part's Content-Type as sent (compared with the detected type, never trusted). */
  declaredType?: string | undefined;
  /** The form's other fields; awaited after the content (multipart may send them after the file). */
  metadata: () => Promise<DocumentMetadataInput>;
}

/** A document whose content may be sent: its record, and its bytes to stream, whole or an inclusive range. */
export interface DocumentContent {
  document: PatientDocument;
  read(range?: ByteRange): Promise<ByteStream>;
}

export interface PatientDocumentServiceDeps {
  storage: Storage<DocumentServiceRepositories>;
  clock: Clock;
  cipher: SecretCipher;
  store: DocumentStore | null;
  scanner: MalwareScanner | null;
  limits: IntakeLimits;
}

const notFound = (id: unknown) =>
  documentError("PATIENT_DOCUMENT_NOT_FOUND", "Document not found for this patient", { document_id: id });

async function* oneChunk(bytes: Uint8Array): AsyncGenerator<Uint8Array> {
  yield bytes;
}

/** A file name as stored: the last path segment, control characters dropped, at most 255 characters. */
export function cleanFileName(name: string | undefined): string {
  const last = (name ?? "").split(/[/\\]/).pop() ?? "";
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what is removed
  const clean = last.replace(/[\u0000-\u001f\u007f]/g, "").trim();
  return (clean || "document").slice(0, DOCUMENT_LIMITS.fileNameMax);
}

/**
 * Patient documents: uploads streamed through detection, hashing and sealing into the document store, their
 * records, their scans, deletion with retention, and their content read back. The status table is
 * document-status-transitions.ts.
 */
export class PatientDocumentService {
  constructor(private readonly deps: PatientDocumentServiceDeps) {}

  /** The largest file an upload may carry (createPractice's documentMaxBytes). */
  get maxBytes(): number {
    return this.deps.limits.maxBytes;
  }

  /** The document store (createPractice's documentStore), or DOCUMENT_STORE_NOT_CONFIGURED. */
  get store(): DocumentStore {
    if (!this.deps.store)
      throw documentError(
        "DOCUMENT_STORE_NOT_CONFIGURED",
        "This instance has no document store (createPractice's documentStore option): documents cannot be uploaded or downloaded",
      );
    return this.deps.store;
  }

  private async patientOf(principal: Principal, patientId: number) {
    const patient = await this.deps.storage.repositories.patients.findById(principal.organisationId, patientId);
    if (!patient) throw patientError("PATIENT_NOT_FOUND", "Patient not found", { patient_id: patientId });
    return patient;
  }

  async settings(principal: Principal): Promise<DocumentSettings> {
    return (
      (await this.deps.storage.repositories.patientDocuments.settingsOf(principal.organisationId)) ??
      DEFAULT_DOCUMENT_SETTINGS
    );
  }

  async updateSettings(principal: Principal, changes: Partial<DocumentSettings>): Promise<DocumentSettings> {
    const issues = documentSettingsIssues(changes);
    if (issues.length > 0) throw DomainError.validation(issues);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      await ensureOrganisation(tx, principal.organisationId, now);
      const current = (await tx.patientDocuments.settingsOf(principal.organisationId)) ?? DEFAULT_DOCUMENT_SETTINGS;
      const next: DocumentSettings = {
        retentionDays: changes.retentionDays ?? current.retentionDays,
        customCategories: changes.customCategories ? [...changes.customCategories] : [...current.customCategories],
      };
      await tx.patientDocuments.saveSettings(principal.organisationId, next, now);
      return next;
    });
  }

  /**
   * What an upload checks before a byte of the body is read: a document store, and the patient in the caller's
   * organisation. A host calls it first so an upload to an unknown patient is refused without reading the file.
   */
  async checkUploadTarget(principal: Principal, patientId: number): Promise<void> {
    void this.store;
    await this.patientOf(principal, patientId);
  }

  /**
   * Streams an upload into the store, then writes its record, its event and its scan job in one transaction. The
   * patient is checked before a byte is read; a refusal at any later step removes the staged bytes, so nothing is
   * left: no row without bytes, no bytes without a row (a process that dies between the two leaves bytes the
   * orphan sweep removes).
   */
  async upload(principal: Principal, patientId: number, upload: DocumentUpload): Promise<PatientDocument> {
    const store = this.store;
    await this.patientOf(principal, patientId);
    const organisationId = principal.organisationId;
    const storageKey = newDocumentObjectKey();
    const dataKey = newDocumentDataKey();
    const staged = await stageContent(store, upload.content, {
      storageKey,
      dataKey,
      limits: this.deps.limits,
      declaredType: upload.declaredType,
    });
    try {
      const metadata = await upload.metadata();
      const settings = await this.settings(principal);
      assertValidDocumentMetadata(metadata, true, categoriesOf(settings));
      const now = this.deps.clock.now();
      const scanned = this.deps.scanner !== null;
      return await this.deps.storage.transaction(async (tx) => {
        await ensureOrganisation(tx, organisationId, now);
        const clinicId = await this.checkReferences(tx, principal, patientId, metadata);
        const document = await tx.patientDocuments.insert({
          organisationId,
          patientId,
          category: metadata.category as string,
          title: (metadata.title as string).trim(),
          description: metadata.description?.trim() || null,
          documentDate: metadata.documentDate ?? null,
          caseId: metadata.caseId ?? null,
          appointmentId: metadata.appointmentId ?? null,
          clinicId,
          source: "upload",
          soapContextId: null,
          fileName: cleanFileName(upload.fileName),
          mediaType: staged.mediaType,
          sizeBytes: staged.sizeBytes,
          sha256: staged.sha256,
          storageKey,
          wrappedKey: wrapDataKey(this.deps.cipher, organisationId, storageKey, dataKey),
          status: scanned ? "pending_scan" : "available",
          scanResult: scanned ? "pending" : "not_configured",
          scanSignature: null,
          scannedAt: null,
          uploadedByUserId: principal.userId,
          uploadedByClientId: principal.clientId ?? null,
          createdAt: now,
          updatedAt: now,
          deletedAt: null,
          purgeAfter: null,
        });
        noteAuditedResource(document.id);
        await tx.outbox.append(
          documentEvent(
            "patient_document.created",
            { organisation_id: organisationId, document_id: document.id, patient_id: patientId },
            now,
          ),
        );
        if (scanned)
          await tx.jobs.enqueue({
            queue: DOCUMENT_SCAN_QUEUE,
            payload: { organisationId, documentId: document.id },
            runAt: now,
          });
        return document;
      });
    } catch (error) {
      await store.delete(storageKey).catch(() => undefined);
      throw error;
    }
  }

  /**
   * Checks the case and appointment a document names: the patient's own, and the appointment at one of the
   * token's clinics (as an unknown one otherwise). Returns the clinic the document belongs to.
   */
  private async checkReferences(
    tx: DocumentServiceRepositories,
    principal: Principal,
    patientId: number,
    metadata: DocumentMetadataInput,
  ): Promise<number | null> {
    const issues: ValidationIssue[] = [];
    let clinicId: number | null = null;
    if (metadata.caseId != null) {
      const found = await tx.cases.findById(principal.organisationId, metadata.caseId);
      if (!found || found.patientId !== patientId)
        issues.push({ field: "case_id", reason: "is not a case of this patient", value: metadata.caseId });
    }
    if (metadata.appointmentId != null) {
      const found = await tx.appointments.findById(principal.organisationId, metadata.appointmentId);
      if (!found || found.patientId !== patientId || !clinicAccess(principal).canSee(found.clinicId))
        issues.push({
          field: "appointment_id",
          reason: "is not an appointment of this patient",
          value: metadata.appointmentId,
        });
      else clinicId = found.clinicId;
    }
    if (issues.length > 0) throw DomainError.validation(issues);
    return clinicId;
  }

  /** A document of the patient the caller may see (not deleted), or PATIENT_DOCUMENT_NOT_FOUND. */
  private async visible(
    r: DocumentServiceRepositories,
    principal: Principal,
    patientId: number,
    documentId: number,
  ): Promise<PatientDocument> {
    const found = await r.patientDocuments.findById(principal.organisationId, documentId);
    if (
      !found ||
      found.patientId !== patientId ||
      found.status === "deleted" ||
      (found.clinicId !== null && !clinicAccess(principal).canSee(found.clinicId))
    )
      throw notFound(documentId);
    return found;
  }

  /** A document the caller may see by its id alone (the FHIR facade's DocumentReference), else not found. */
  async getById(principal: Principal, documentId: number): Promise<PatientDocument> {
    const found = Number.isSafeInteger(documentId)
      ? await this.deps.storage.repositories.patientDocuments.findById(principal.organisationId, documentId)
      : undefined;
    if (!found) throw notFound(documentId);
    return this.visible(this.deps.storage.repositories, principal, found.patientId, documentId);
  }

  async get(principal: Principal, patientId: number, documentId: number): Promise<PatientDocument> {
    await this.patientOf(principal, patientId);
    return this.visible(this.deps.storage.repositories, principal, patientId, documentId);
  }

  async list(
    principal: Principal,
    patientId: number,
    query: DocumentListQuery,
  ): Promise<{ documents: PatientDocument[]; total: number; page: number; size: number }> {
    await this.patientOf(principal, patientId);
    if (query.from && query.to && query.from > query.to)
      throw DomainError.validation([{ field: "to", reason: "must not be before from", value: query.to }]);
    const found = await this.deps.storage.repositories.patientDocuments.list(principal.organisationId, patientId, {
      category: query.category,
      caseId: query.caseId,
      status: query.status,
      from: query.from,
      to: query.to,
      clinicIds: clinicAccess(principal).only,
      limit: query.size,
      offset: (query.page - 1) * query.size,
    });
    return { ...found, page: query.page, size: query.size };
  }

  /** Partial update of the metadata (null clears an optional field); a visit summary's category stays. */
  async update(
    principal: Principal,
    patientId: number,
    documentId: number,
    changes: DocumentMetadataInput,
  ): Promise<PatientDocument> {
    await this.patientOf(principal, patientId);
    const settings = await this.settings(principal);
    assertValidDocumentMetadata(changes, false, categoriesOf(settings));
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const current = await this.visible(tx, principal, patientId, documentId);
      if (current.source === "soap_summary" && changes.category !== undefined)
        throw DomainError.validation([
          { field: "category", reason: "a visit summary stays in visit_summary", value: changes.category },
        ]);
      const clinicId = await this.checkReferences(tx, principal, patientId, changes);
      const next: PatientDocument = {
        ...current,
        category: changes.category ?? current.category,
        title: changes.title?.trim() ?? current.title,
        description: changes.description === undefined ? current.description : changes.description?.trim() || null,
        documentDate: changes.documentDate === undefined ? current.documentDate : changes.documentDate,
        caseId: changes.caseId === undefined ? current.caseId : changes.caseId,
        appointmentId: changes.appointmentId === undefined ? current.appointmentId : changes.appointmentId,
        // A summary keeps its note's clinic; an upload follows its appointment (none: the organisation's).
        clinicId:
          current.source === "soap_summary" || changes.appointmentId === undefined ? current.clinicId : clinicId,
        updatedAt: now,
      };
      await tx.patientDocuments.update(next);
      return next;
    });
  }

  /**
   * Soft delete: the document leaves every list and read, its content stays for the organisation's retention
   * period (purge_after), then the purge removes bytes and row. A visit summary is refused: it is the note's.
   */
  async delete(principal: Principal, patientId: number, documentId: number): Promise<PatientDocument> {
    await this.patientOf(principal, patientId);
    const settings = await this.settings(principal);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const current = await this.visible(tx, principal, patientId, documentId);
      if (current.source === "soap_summary")
        throw DomainError.validation([
          {
            field: "document_id",
            reason: "is a SOAP note's visit summary, kept with the completed note",
            value: documentId,
          },
        ]);
      const transition = documentTransition(current.status, "delete");
      if (!transition) throw notFound(documentId);
      const next: PatientDocument = {
        ...current,
        status: "deleted",
        deletedAt: now,
        purgeAfter: new Date(now.getTime() + settings.retentionDays * 86_400_000),
        updatedAt: now,
      };
      // The compare-and-set keeps a scan verdict landing now from writing over the deletion (or the reverse).
      if (!(await tx.patientDocuments.updateIfStatus(next, current.status))) throw notFound(documentId);
      if (current.status === "quarantined") await queueQuarantineChange(tx, principal.organisationId, documentId, now);
      await tx.outbox.append(
        documentEvent(
          "patient_document.deleted",
          { organisation_id: principal.organisationId, document_id: documentId, patient_id: patientId },
          now,
        ),
      );
      return next;
    });
  }

  /**
   * A document to download: 409 DOCUMENT_NOT_READY while the scan is pending, 410 DOCUMENT_QUARANTINED for good when
   * it found something. The record is read once; `read` then streams the bytes, whole or a range (uploads decrypted
   * as they stream, visit summaries from the SOAP summary store).
   */
  async content(principal: Principal, patientId: number, documentId: number): Promise<DocumentContent> {
    await this.patientOf(principal, patientId);
    const document = await this.visible(this.deps.storage.repositories, principal, patientId, documentId);
    if (document.status === "pending_scan")
      throw documentError("DOCUMENT_NOT_READY", "The document's malware scan has not finished; try again shortly", {
        document_id: documentId,
        status: document.status,
      });
    if (document.status === "quarantined")
      throw documentError(
        "DOCUMENT_QUARANTINED",
        "The malware scan found something in this document; it is never served",
        {
          document_id: documentId,
          status: document.status,
          signature: document.scanSignature,
        },
      );
    const read = async (range?: ByteRange): Promise<ByteStream> => {
      if (range && (range.start > range.end || range.end >= document.sizeBytes))
        throw documentError("DOCUMENT_RANGE_NOT_SATISFIABLE", "The range lies outside the document", {
          size_bytes: document.sizeBytes,
        });
      if (document.source === "upload") return this.sealedContentOf(document, range);
      const summary = await this.deps.storage.repositories.soapDocuments.get(
        principal.organisationId,
        document.soapContextId as string,
        "full",
      );
      if (!summary) throw notFound(documentId);
      return oneChunk(range ? summary.content.subarray(range.start, range.end + 1) : summary.content);
    };
    return { document, read };
  }

  private sealedContentOf(document: PatientDocument, range?: ByteRange): Promise<ByteStream> {
    const storageKey = document.storageKey as string;
    return readSealedContent(this.store, {
      storageKey,
      dataKey: unwrapDataKey(this.deps.cipher, document.organisationId, storageKey, document.wrappedKey as string),
      sizeBytes: document.sizeBytes,
      range,
    });
  }

  /**
   * The scan job: streams the plain content to the scanner and records the verdict through the status table
   * (a document deleted meanwhile keeps its deletion). Without a scanner (removed since the upload) the document
   * becomes available unscanned, as new uploads are.
   */
  async scan(organisationId: number, documentId: number): Promise<PatientDocument | undefined> {
    const current = await this.deps.storage.repositories.patientDocuments.findById(organisationId, documentId);
    if (current?.status !== "pending_scan") return current;
    let trigger: DocumentTrigger = "scan_skipped";
    let signature: string | null = null;
    const scanner = this.deps.scanner;
    if (scanner) {
      const verdict = await scanner.scan(await this.sealedContentOf(current));
      trigger = verdict.infected ? "scan_infected" : "scan_clean";
      signature = verdict.infected ? verdict.signature : null;
    }
    const transition = documentTransition(current.status, trigger);
    if (!transition?.to) return current;
    const now = this.deps.clock.now();
    const next: PatientDocument = {
      ...current,
      status: transition.to,
      scanResult: transition.scan ?? current.scanResult,
      scanSignature: signature,
      scannedAt: scanner ? now : null,
      updatedAt: now,
    };
    return this.deps.storage.transaction(async (tx) => {
      if (!(await tx.patientDocuments.updateIfStatus(next, "pending_scan"))) return current;
      if (next.status === "quarantined") await queueQuarantineChange(tx, organisationId, documentId, now);
      return next;
    });
  }

  /**
   * The purge: deleted documents past their retention period lose their bytes, then their row, with an audit
   * entry naming the system as the actor. Returns how many were purged.
   */
  async purgeDue(limit = 100): Promise<number> {
    const now = this.deps.clock.now();
    const due = await this.deps.storage.repositories.patientDocuments.duePurge(now, limit);
    let purged = 0;
    for (const document of due) {
      const transition = documentTransition(document.status, "purge");
      if (!transition || !document.purgeAfter || document.purgeAfter > now) continue;
      // Bytes first: a crash after this leaves a row whose purge runs again (delete is idempotent), never bytes
      // without a row.
      if (document.storageKey && this.deps.store) await this.deps.store.delete(document.storageKey);
      await this.deps.storage.transaction(async (tx) => {
        await tx.patientDocuments.remove(document.organisationId, document.id);
        await tx.audit.append([
          {
            organisationId: document.organisationId,
            occurredAt: now,
            actorUserId: null,
            actorName: "system: document retention purge",
            clientId: null,
            action: "system.purgePatientDocument",
            resourceType: "patient_document",
            resourceId: String(document.id),
            requestId: null,
            changedFields: [],
          },
        ]);
      });
      purged++;
    }
    return purged;
  }

  /**
   * The orphan sweep: objects in the store that no row names and that are older than `minAgeMs` (an upload in
   * flight has bytes before its row) are removed. Returns their keys. The store also holds bulk exports' files:
   * the objects an export names stay too.
   */
  async sweepOrphans(minAgeMs = 3_600_000): Promise<string[]> {
    const store = this.deps.store;
    if (!store) return [];
    const cutoff = this.deps.clock.now().getTime() - minAgeMs;
    const removed: string[] = [];
    let batch: string[] = [];
    const flush = async () => {
      const [inUse, otherwise] = await Promise.all([
        this.deps.storage.repositories.patientDocuments.storageKeysInUse(batch),
        this.deps.storage.repositories.bulkExports.storageKeysInUse(batch),
      ]);
      for (const key of batch)
        if (!inUse.has(key) && !otherwise.has(key)) {
          await store.delete(key);
          removed.push(key);
        }
      batch = [];
    };
    for await (const object of store.list()) {
      if (object.modifiedAt.getTime() > cutoff) continue;
      batch.push(object.key);
      if (batch.length >= 500) await flush();
    }
    if (batch.length > 0) await flush();
    return removed;
  }
}
