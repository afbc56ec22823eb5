import {
  type DocumentListFilter,
  type DocumentSettings,
  type DocumentSource,
  type DocumentStatus,
  type PatientDocument,
  type PatientDocumentRepository,
  type ScanResult,
  type VisitSummaryRecord,
  documentListDate,
  visitSummaryDocument,
} from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { readLatest } from "../contention.js";
import { insertIgnoringDuplicate, insertIgnoringDuplicateReturningId } from "../insert-ignoring-duplicate.js";
import { insertReturningId } from "./insert-returning-id.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import type { PatientDocumentsTable } from "../tables/documents.js";

const time = (d: Date | null) => (d ? toDbTime(d) : null);
const timeOf = (s: string | null) => (s === null ? null : fromDbTime(s));

/** The columns an update may change. */
function mutableColumns(d: PatientDocument) {
  return {
    category: d.category,
    title: d.title,
    description: d.description,
    document_date: d.documentDate,
    listed_on: documentListDate(d),
    case_id: d.caseId,
    appointment_id: d.appointmentId,
    clinic_id: d.clinicId,
    status: d.status,
    scan_result: d.scanResult,
    scan_signature: d.scanSignature,
    scanned_at: time(d.scannedAt),
    updated_at: toDbTime(d.updatedAt),
    deleted_at: time(d.deletedAt),
    purge_after: time(d.purgeAfter),
  };
}

function allColumns(d: Omit<PatientDocument, "id">) {
  return {
    ...mutableColumns(d as PatientDocument),
    organisation_id: d.organisationId,
    patient_id: d.patientId,
    source: d.source,
    soap_context_id: d.soapContextId,
    file_name: d.fileName,
    media_type: d.mediaType,
    size_bytes: d.sizeBytes,
    sha256: d.sha256,
    storage_key: d.storageKey,
    wrapped_key: d.wrappedKey,
    uploaded_by_user_id: d.uploadedByUserId,
    uploaded_by_client_id: d.uploadedByClientId,
    created_at: toDbTime(d.createdAt),
  };
}

const nullableNumber = (v: number | string | bigint | null) => (v === null ? null : Number(v));

export const toDocument = (r: Selectable<PatientDocumentsTable>): PatientDocument => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  patientId: Number(r.patient_id),
  category: r.category,
  title: r.title,
  description: r.description,
  documentDate: r.document_date,
  caseId: nullableNumber(r.case_id),
  appointmentId: nullableNumber(r.appointment_id),
  clinicId: nullableNumber(r.clinic_id),
  source: r.source as DocumentSource,
  soapContextId: r.soap_context_id,
  fileName: r.file_name,
  mediaType: r.media_type,
  sizeBytes: Number(r.size_bytes),
  sha256: r.sha256,
  storageKey: r.storage_key,
  wrappedKey: r.wrapped_key,
  status: r.status as DocumentStatus,
  scanResult: r.scan_result as ScanResult,
  scanSignature: r.scan_signature,
  scannedAt: timeOf(r.scanned_at),
  uploadedByUserId: nullableNumber(r.uploaded_by_user_id),
  uploadedByClientId: r.uploaded_by_client_id,
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
  deletedAt: timeOf(r.deleted_at),
  purgeAfter: timeOf(r.purge_after),
});

export class KyselyPatientDocumentRepository implements PatientDocumentRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async insert(record: Omit<PatientDocument, "id">): Promise<PatientDocument> {
    return { ...record, id: await insertReturningId(this.db, this.profile, "patient_documents", allColumns(record)) };
  }

  async findById(organisationId: number, id: number): Promise<PatientDocument | undefined> {
    const row = await this.db
      .selectFrom("patient_documents")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toDocument(row) : undefined;
  }

  async update(record: PatientDocument): Promise<void> {
    await this.db
      .updateTable("patient_documents")
      .set(mutableColumns(record))
      .where("organisation_id", "=", record.organisationId)
      .where("id", "=", record.id)
      .execute();
  }

  async updateIfStatus(record: PatientDocument, expectedStatus: DocumentStatus): Promise<boolean> {
    const result = await this.db
      .updateTable("patient_documents")
      .set(mutableColumns(record))
      .where("organisation_id", "=", record.organisationId)
      .where("id", "=", record.id)
      .where("status", "=", expectedStatus)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async list(organisationId: number, patientId: number, filter: DocumentListFilter) {
    let q = this.db
      .selectFrom("patient_documents")
      .where("organisation_id", "=", organisationId)
      .where("patient_id", "=", patientId);
    q = filter.status ? q.where("status", "=", filter.status) : q.where("status", "<>", "deleted");
    if (filter.category) q = q.where("category", "=", filter.category);
    if (filter.caseId !== undefined) q = q.where("case_id", "=", filter.caseId);
    if (filter.from) q = q.where("listed_on", ">=", filter.from);
    if (filter.to) q = q.where("listed_on", "<=", filter.to);
    const clinics = filter.clinicIds;
    if (clinics) q = q.where((eb) => eb.or([eb("clinic_id", "is", null), eb("clinic_id", "in", [...clinics])]));
    const [rows, count] = await Promise.all([
      q
        .selectAll()
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(filter.limit)
        .offset(filter.offset)
        .execute(),
      q.select((eb) => eb.fn.countAll<number>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { documents: rows.map(toDocument), total: Number(count.n) };
  }

  async remove(organisationId: number, id: number): Promise<void> {
    await this.db
      .deleteFrom("patient_documents")
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .execute();
  }

  async duePurge(now: Date, limit: number): Promise<PatientDocument[]> {
    const rows = await this.db
      .selectFrom("patient_documents")
      .selectAll()
      .where("status", "=", "deleted")
      .where("purge_after", "<=", toDbTime(now))
      .orderBy("purge_after")
      .limit(limit)
      .execute();
    return rows.map(toDocument);
  }

  async storageKeysInUse(storageKeys: readonly string[]): Promise<Set<string>> {
    if (storageKeys.length === 0) return new Set();
    const rows = await readLatest(
      this.profile,
      this.db
        .selectFrom("patient_documents")
        .select("storage_key")
        .where("storage_key", "in", [...storageKeys]),
    ).execute();
    return new Set(rows.map((r) => r.storage_key as string));
  }

  async recordVisitSummary(record: VisitSummaryRecord): Promise<{ created: boolean; document: PatientDocument }> {
    const existing = await this.db
      .selectFrom("patient_documents")
      .selectAll()
      .where("organisation_id", "=", record.organisationId)
      .where("soap_context_id", "=", record.soapContextId)
      .executeTakeFirst();
    if (existing) {
      const document: PatientDocument = {
        ...toDocument(existing),
        sizeBytes: record.sizeBytes,
        sha256: record.sha256,
        mediaType: record.mediaType,
        updatedAt: record.createdAt,
      };
      await this.db
        .updateTable("patient_documents")
        .set({
          size_bytes: record.sizeBytes,
          sha256: record.sha256,
          media_type: record.mediaType,
          updated_at: toDbTime(record.createdAt),
        })
        .where("id", "=", document.id)
        .execute();
      return { created: false, document };
    }
    const draft = visitSummaryDocument(record);
    // Rendering runs under the note's lock, so one summary row per note; the unique key is the backstop.
    const id = await insertIgnoringDuplicateReturningId(this.db, this.profile, "patient_documents", allColumns(draft), [
      "organisation_id",
      "soap_context_id",
    ]);
    if (id === undefined) return this.recordVisitSummary(record);
    return { created: true, document: { ...draft, id } };
  }

  async settingsOf(organisationId: number): Promise<DocumentSettings | undefined> {
    const row = await this.db
      .selectFrom("patient_document_settings")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .executeTakeFirst();
    return row
      ? { retentionDays: Number(row.retention_days), customCategories: JSON.parse(row.custom_categories) as string[] }
      : undefined;
  }

  async saveSettings(organisationId: number, settings: DocumentSettings, now: Date): Promise<void> {
    const values = {
      retention_days: settings.retentionDays,
      custom_categories: JSON.stringify(settings.customCategories),
      updated_at: toDbTime(now),
    };
    // Insert-if-absent, then update: two first saves at once end with one row (the later values), never a key error.
    const inserted = await insertIgnoringDuplicate(
      this.db,
      this.profile,
      "patient_document_settings",
      { organisation_id: organisationId, ...values },
      ["organisation_id"],
    );
    if (!inserted)
      await this.db
        .updateTable("patient_document_settings")
        .set(values)
        .where("organisation_id", "=", organisationId)
        .execute();
  }
}
