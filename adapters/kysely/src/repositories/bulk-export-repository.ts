import type {
  BulkExport,
  BulkExportCursor,
  BulkExportFile,
  BulkExportKind,
  BulkExportRepository,
  BulkExportStatus,
  BulkExportType,
} from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { BulkExportFilesTable, BulkExportsTable } from "../tables/bulk-export.js";

const time = (d: Date | null) => (d ? toDbTime(d) : null);
const timeOf = (s: string | null) => (s === null ? null : fromDbTime(s));

const toFile = (r: Selectable<BulkExportFilesTable>): BulkExportFile => ({
  position: Number(r.position),
  type: r.type as BulkExportType,
  storageKey: r.storage_key,
  wrappedKey: r.wrapped_key,
  count: Number(r.resource_count),
  sizeBytes: Number(r.size_bytes),
});

const toExport = (r: Selectable<BulkExportsTable>, files: BulkExportFile[]): BulkExport => ({
  id: r.id,
  organisationId: Number(r.organisation_id),
  kind: r.kind as BulkExportKind,
  types: r.types.split(",") as BulkExportType[],
  since: timeOf(r.since),
  requestUrl: r.request_url,
  requestedByUser: r.requested_by_user === null ? null : Number(r.requested_by_user),
  requestedByClient: r.requested_by_client,
  inClinics: r.in_clinics === null ? null : (JSON.parse(r.in_clinics) as number[]),
  status: r.status as BulkExportStatus,
  cursor: { typeIndex: Number(r.cursor_type), afterId: Number(r.cursor_after) },
  exported: Number(r.exported),
  files,
  error: r.error,
  transactionTime: fromDbTime(r.transaction_time),
  updatedAt: fromDbTime(r.updated_at),
  completedAt: timeOf(r.completed_at),
  expiresAt: timeOf(r.expires_at),
});

/** What changes as an export runs (the rest is written once, at kick-off). */
const changing = (e: BulkExport) => ({
  status: e.status,
  cursor_type: e.cursor.typeIndex,
  cursor_after: e.cursor.afterId,
  exported: e.exported,
  error: e.error,
  updated_at: toDbTime(e.updatedAt),
  completed_at: time(e.completedAt),
  expires_at: time(e.expiresAt),
});

export class KyselyBulkExportRepository implements BulkExportRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async insert(e: BulkExport) {
    await this.db
      .insertInto("bulk_exports")
      .values({
        organisation_id: e.organisationId,
        id: e.id,
        kind: e.kind,
        types: e.types.join(","),
        since: time(e.since),
        request_url: e.requestUrl,
        requested_by_user: e.requestedByUser,
        requested_by_client: e.requestedByClient,
        in_clinics: e.inClinics === null ? null : JSON.stringify(e.inClinics),
        transaction_time: toDbTime(e.transactionTime),
        ...changing(e),
      })
      .execute();
  }

  async findById(organisationId: number, id: string) {
    const row = await this.db
      .selectFrom("bulk_exports")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return undefined;
    return toExport(row, await this.filesOf(organisationId, [id]).then((m) => m.get(id) ?? []));
  }

  async countActive(organisationId: number) {
    const row = await this.db
      .selectFrom("bulk_exports")
      .select((eb) => eb.fn.countAll<number>().as("n"))
      .where("organisation_id", "=", organisationId)
      .where("status", "in", ["queued", "running"])
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async update(e: BulkExport, expected: { status: BulkExportStatus; cursor: BulkExportCursor }) {
    const result = await this.db
      .updateTable("bulk_exports")
      .set(changing(e))
      .where("organisation_id", "=", e.organisationId)
      .where("id", "=", e.id)
      .where("status", "=", expected.status)
      .where("cursor_type", "=", expected.cursor.typeIndex)
      .where("cursor_after", "=", expected.cursor.afterId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async cancel(organisationId: number, id: string, from: readonly BulkExportStatus[], now: Date) {
    const result = await this.db
      .updateTable("bulk_exports")
      .set({ status: "cancelled", expires_at: toDbTime(now), updated_at: toDbTime(now) })
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .where("status", "in", [...from])
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async stalled(before: Date, limit: number) {
    const rows = await this.db
      .selectFrom("bulk_exports")
      .selectAll()
      .where("status", "in", ["queued", "running"])
      .where("updated_at", "<", toDbTime(before))
      .orderBy("updated_at")
      .limit(limit)
      .execute();
    return rows.map((r) => toExport(r, []));
  }

  async lockOrganisation(organisationId: number) {
    // An UPDATE takes the row's write lock on every engine (SQLite's database write lock) until the transaction ends.
    await this.db
      .updateTable("organisations")
      .set((eb) => ({ updated_at: eb.ref("updated_at") }))
      .where("id", "=", organisationId)
      .execute();
  }

  async addFile(organisationId: number, exportId: string, f: BulkExportFile) {
    await this.db
      .insertInto("bulk_export_files")
      .values({
        organisation_id: organisationId,
        export_id: exportId,
        position: f.position,
        type: f.type,
        storage_key: f.storageKey,
        wrapped_key: f.wrappedKey,
        resource_count: f.count,
        size_bytes: f.sizeBytes,
      })
      .execute();
  }

  async expired(now: Date, limit: number) {
    const rows = await this.db
      .selectFrom("bulk_exports")
      .selectAll()
      .where("expires_at", "<=", toDbTime(now))
      .orderBy("expires_at")
      .limit(limit)
      .execute();
    const out: BulkExport[] = [];
    for (const r of rows) {
      const files = await this.filesOf(Number(r.organisation_id), [r.id]);
      out.push(toExport(r, files.get(r.id) ?? []));
    }
    return out;
  }

  async remove(organisationId: number, id: string) {
    await this.db
      .deleteFrom("bulk_export_files")
      .where("organisation_id", "=", organisationId)
      .where("export_id", "=", id)
      .execute();
    await this.db
      .deleteFrom("bulk_exports")
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .execute();
  }

  async storageKeysInUse(storageKeys: readonly string[]) {
    if (storageKeys.length === 0) return new Set<string>();
    const rows = await this.db
      .selectFrom("bulk_export_files")
      .select("storage_key")
      .where("storage_key", "in", [...storageKeys])
      .execute();
    return new Set(rows.map((r) => r.storage_key));
  }

  private async filesOf(organisationId: number, exportIds: string[]) {
    const rows = await this.db
      .selectFrom("bulk_export_files")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("export_id", "in", exportIds)
      .orderBy("position")
      .execute();
    const byExport = new Map<string, BulkExportFile[]>();
    for (const r of rows) byExport.set(r.export_id, [...(byExport.get(r.export_id) ?? []), toFile(r)]);
    return byExport;
  }
}
