import type { Principal } from "../auth/principal.js";
import { clinicAccess } from "../auth/clinic-access.js";
import type { ByteStream, DocumentStore } from "../documents/document-store.js";
import { readSealedContent } from "../documents/document-content-reader.js";
import { newDocumentDataKey, newDocumentObjectKey, unwrapDataKey, wrapDataKey } from "../documents/document-keys.js";
import { documentError } from "../documents/patient-document-errors.js";
import { sealContent } from "../documents/sealed-content.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError } from "../kernel/domain-error.js";
import type { Ids } from "../kernel/ids.js";
import type { ClaimedJob, JobQueue } from "../kernel/job-queue.js";
import type { JobContext } from "../kernel/job-handler.js";
import type { Storage } from "../kernel/storage.js";
import type { SecretCipher } from "../webhooks/secret-cipher.js";
import {
  BULK_EXPORT_LIMITS,
  type BulkExport,
  type BulkExportFile,
  type BulkExportKind,
  type BulkExportStatus,
  type BulkExportType,
  PATIENT_EXPORT_TYPES,
  SYSTEM_EXPORT_TYPES,
} from "./bulk-export.js";
import { bulkExportError } from "./bulk-export-errors.js";
import type { BulkExportRepository } from "./bulk-export-repository.js";
import { type ExportedResource, type ExportReadRepositories, exportedResources } from "./bulk-export-resources.js";
import { type SliceTally, sliceLines } from "./bulk-export-slice.js";
import { BULK_EXPORT_TRANSITIONS, bulkExportTransition, type BulkExportTrigger } from "./bulk-export-transitions.js";

/** The queue of export jobs; a job's payload names the organisation and the export. */
export const BULK_EXPORT_QUEUE = "bulk-export";

export interface BulkExportServiceRepositories extends ExportReadRepositories {
  bulkExports: BulkExportRepository;
  jobs: JobQueue;
}

export interface BulkExportSettings {
  resourcesPerFile: number;
  retentionHours: number;
  cipher: SecretCipher;
  store: DocumentStore | null;
}

/** What a kick-off asks for (docs/fhir.md, "Bulk Data export"). */
export interface BulkExportRequest {
  kind: BulkExportKind;
  /** `_type`: null for every type of the kind the caller may read (the HTTP layer narrows by scope). */
  types: readonly string[];
  since: Date | null;
  requestUrl: string;
}

const ACTIVE: readonly BulkExportStatus[] = ["queued", "running"];
const EXPORT_TYPES: Record<BulkExportKind, readonly string[]> = {
  system: SYSTEM_EXPORT_TYPES,
  patient: PATIENT_EXPORT_TYPES,
};

/**
 * Bulk Data exports (FHIR Bulk Data Access 2.0) of an organisation's records as NDJSON files, sealed in the
 * document store as patient documents are. The job writes a file per slice (at most `resourcesPerFile`
 * resources), committing the file and the cursor together, so a restart resumes at the last file written and a
 * graceful stop waits for one slice at most.
 */
export class BulkExportService {
  constructor(
    private readonly deps: {
      storage: Storage<BulkExportServiceRepositories>;
      clock: Clock;
      ids: Ids;
      settings: BulkExportSettings;
    },
  ) {}

  /** Accepts an export and queues its job in the same transaction. */
  async kickOff(principal: Principal, request: BulkExportRequest): Promise<BulkExport> {
    const allowed = EXPORT_TYPES[request.kind];
    const unknown = request.types.filter((t) => !allowed.includes(t));
    if (unknown.length > 0)
      throw DomainError.invalidParameter(
        "_type",
        unknown.join(","),
        `names types this export does not write; it writes ${allowed.join(", ")}`,
      );
    if (request.types.length === 0)
      throw DomainError.invalidParameter("_type", "", "no type this export writes is readable with this token");
    if (request.since && request.since.getTime() > this.deps.clock.now().getTime())
      throw DomainError.invalidParameter("_since", request.since.toISOString(), "must not be in the future");
    this.requireStore();
    const now = this.deps.clock.now();
    const e: BulkExport = {
      id: this.deps.ids.uuid(),
      organisationId: principal.organisationId,
      kind: request.kind,
      types: [...new Set(request.types)] as BulkExportType[],
      since: request.since,
      requestUrl: request.requestUrl,
      requestedByUser: principal.userId,
      requestedByClient: principal.clientId ?? null,
      inClinics: inClinicsOf(principal),
      status: "queued",
      cursor: { typeIndex: 0, afterId: 0 },
      exported: 0,
      files: [],
      error: null,
      transactionTime: now,
      updatedAt: now,
      completedAt: null,
      expiresAt: null,
    };
    await this.deps.storage.transaction(async (tx) => {
      // Two kick-offs at once are counted one after the other.
      await tx.bulkExports.lockOrganisation(principal.organisationId);
      const active = await tx.bulkExports.countActive(principal.organisationId);
      const limit = BULK_EXPORT_LIMITS.maxActivePerOrganisation;
      if (active >= limit)
        throw bulkExportError(
          "BULK_EXPORT_LIMIT_REACHED",
          `The organisation already has ${active} exports in progress; wait for one to finish or cancel one`,
          { limit },
        );
      await tx.bulkExports.insert(e);
      await tx.jobs.enqueue({
        queue: BULK_EXPORT_QUEUE,
        payload: { organisationId: e.organisationId, exportId: e.id },
        runAt: now,
      });
    });
    return e;
  }

  /** The requester's export (another requester's, or a cancelled one, is not found). */
  async status(principal: Principal, id: string): Promise<BulkExport> {
    const e = await this.deps.storage.repositories.bulkExports.findById(principal.organisationId, id);
    if (!e || e.status === "cancelled" || !this.isRequester(principal, e)) throw notFound(id);
    return e;
  }

  /** DELETE: cancels a running export or discards a finished one; its files are removed by the purge. */
  async cancel(principal: Principal, id: string): Promise<void> {
    await this.status(principal, id);
    // Only the status and expiry are written, from any status the table lets `cancel` leave: the job's slices in
    // between cannot make it miss (and the job's next commit, comparing the status it read, then stops).
    const from = BULK_EXPORT_TRANSITIONS.filter((t) => t.trigger === "cancel").map((t) => t.from);
    if (
      !(await this.deps.storage.repositories.bulkExports.cancel(
        principal.organisationId,
        id,
        from,
        this.deps.clock.now(),
      ))
    )
      throw notFound(id);
  }

  /**
   * One completed file's plain NDJSON, streamed from the store. The caller must still reach what the export saw:
   * `mayRead` its file's type (the caller's scopes, checked by the host), and every clinic the export covered.
   */
  async file(
    principal: Principal,
    id: string,
    position: number,
    mayRead: (type: BulkExportType) => boolean = () => true,
  ): Promise<{ file: BulkExportFile; content: ByteStream }> {
    const e = await this.status(principal, id);
    const file = e.status === "completed" ? e.files.find((f) => f.position === position) : undefined;
    if (!file || !mayRead(file.type) || !reachesClinicsOf(principal, e)) throw notFound(id);
    const store = this.requireStore();
    const dataKey = unwrapDataKey(this.deps.settings.cipher, e.organisationId, file.storageKey, file.wrappedKey);
    return {
      file,
      content: await readSealedContent(store, { storageKey: file.storageKey, dataKey, sizeBytes: file.sizeBytes }),
    };
  }

  /**
   * The job: writes files slice after slice until `resourcesPerFile` resources are written in this run or the
   * export is done. Each commit (the start, every slice with its file and cursor, the last with the continuation
   * and this job's completion) first renews this job's lease in the same transaction, so a worker whose lease ran
   * out and was claimed by another never commits again. Any other failure on the job's last attempt fails the
   * export; the housekeeping fails exports that made no progress for a day (a job lost some other way).
   */
  async run(job: ClaimedJob, context: JobContext): Promise<"completed"> {
    const { organisationId, exportId } = job.payload as { organisationId: number; exportId: string };
    const finishJob = () =>
      this.deps.storage.transaction((tx) => context.complete(tx).then(() => "completed" as const));
    /** A transaction of this job's: refused (LeaseLost) once another worker holds the job. */
    const held = <T>(fn: (tx: BulkExportServiceRepositories) => Promise<T>) =>
      this.deps.storage.transaction(async (tx) => {
        if (!(await context.renew(tx))) throw new LeaseLost();
        return fn(tx);
      });
    let e: BulkExport | undefined;
    try {
      e = await this.deps.storage.repositories.bulkExports.findById(Number(organisationId), String(exportId));
      if (!e || !ACTIVE.includes(e.status)) return await finishJob();
      if (e.status === "queued") {
        const queued: BulkExport = e;
        const started = await held((tx) => this.move(tx.bulkExports, queued, "start", (next) => next));
        // Cancelled before it started.
        if (!started) return await finishJob();
        e = started;
      }
      let written = 0;
      while (e.cursor.typeIndex < e.types.length && written < this.deps.settings.resourcesPerFile) {
        const slice = await this.writeSlice(e, this.deps.settings.resourcesPerFile - written);
        written += slice.file?.count ?? 0;
        const from: BulkExport = e;
        const next = await held(async (tx) => {
          const moved = await this.move(tx.bulkExports, from, "slice", (n) => ({
            ...n,
            cursor: slice.cursor,
            exported: n.exported + (slice.file?.count ?? 0),
            files: slice.file ? [...n.files, slice.file] : n.files,
          }));
          if (moved && slice.file) await tx.bulkExports.addFile(moved.organisationId, moved.id, slice.file);
          return moved;
        }).catch(async (error: unknown) => {
          // The slice's bytes are no file of the export.
          if (slice.file) await this.requireStore().delete(slice.file.storageKey);
          throw error;
        });
        if (!next) {
          // Cancelled meanwhile (this worker holds the job, so no one else moved the cursor).
          if (slice.file) await this.requireStore().delete(slice.file.storageKey);
          return await finishJob();
        }
        e = next;
      }
      const current: BulkExport = e;
      await held(async (tx) => {
        if (current.cursor.typeIndex >= current.types.length)
          await this.move(tx.bulkExports, current, "finish", (n, now) => ({
            ...n,
            completedAt: now,
            expiresAt: this.expiry(now),
          }));
        else
          await tx.jobs.enqueue({
            queue: BULK_EXPORT_QUEUE,
            payload: { organisationId: current.organisationId, exportId: current.id },
            runAt: this.deps.clock.now(),
          });
        await context.complete(tx);
      });
      return "completed";
    } catch (error) {
      // Another worker holds the job now: it carries on; nothing here may touch the export.
      if (error instanceof LeaseLost || !context.finalAttempt || !e) throw error;
      const failed: BulkExport = e;
      await this.deps.storage.transaction(async (tx) => {
        // The reason stays on the record for operators; the status answer names no internals.
        await this.move(tx.bulkExports, failed, "fail", (n, now) => ({
          ...n,
          error: (error as Error).message.slice(0, 2000),
          completedAt: now,
          expiresAt: this.expiry(now),
        }));
        await context.complete(tx);
      });
      return "completed";
    }
  }

  /**
   * Housekeeping: fails exports queued or running that made no progress for a day (their job was lost: a store
   * down through every retry, say), then removes exports past their expiry (files, then rows); returns how many
   * it removed.
   */
  async purgeExpired(limit: number): Promise<number> {
    const repos = this.deps.storage.repositories;
    const now = this.deps.clock.now();
    for (const e of await repos.bulkExports.stalled(new Date(now.getTime() - STALL_MS), limit))
      await this.move(repos.bulkExports, e, "fail", (n) => ({
        ...n,
        error: "no progress for 24 hours",
        completedAt: now,
        expiresAt: this.expiry(now),
      }));
    const due = await repos.bulkExports.expired(this.deps.clock.now(), limit);
    for (const e of due) {
      for (const f of e.files) await this.deps.settings.store?.delete(f.storageKey);
      await repos.bulkExports.remove(e.organisationId, e.id);
    }
    return due.length;
  }

  /** The keys among `keys` an export file names (for the document store's orphan sweep). */
  storageKeysInUse(keys: readonly string[]): Promise<Set<string>> {
    return this.deps.storage.repositories.bulkExports.storageKeysInUse(keys);
  }

  /**
   * Writes the next file of the export: up to `room` resources of the cursor's type from its position, sealed
   * into the store as they are drawn. A type with nothing (left) to write gives no file and moves the cursor on.
   */
  private async writeSlice(
    e: BulkExport,
    room: number,
  ): Promise<{ file: BulkExportFile | undefined; cursor: BulkExport["cursor"] }> {
    const store = this.requireStore();
    const type = e.types[e.cursor.typeIndex] as BulkExportType;
    const resources = exportedResources(
      this.deps.storage.repositories,
      e,
      type,
      e.cursor.afterId,
      BULK_EXPORT_LIMITS.pageSize,
    )[Symbol.asyncIterator]();
    // Nothing (left) of this type: no file, and the cursor moves to the next type without touching the store.
    const first = await resources.next();
    if (first.done) return { file: undefined, cursor: { typeIndex: e.cursor.typeIndex + 1, afterId: 0 } };
    let pending: IteratorResult<ExportedResource> | undefined = first;
    const fromFirst: AsyncIterator<ExportedResource> = {
      next: () => {
        const head = pending;
        pending = undefined;
        return head ? Promise.resolve(head) : resources.next();
      },
      return: async () => (await resources.return?.(undefined)) ?? { done: true, value: undefined },
    };
    const tally: SliceTally = { count: 0, bytes: 0, lastId: e.cursor.afterId, exhausted: false };
    const storageKey = newDocumentObjectKey();
    const dataKey = newDocumentDataKey();
    await store.put(storageKey, sealContent(sliceLines(fromFirst, room, tally), dataKey));
    return {
      file: {
        position: e.files.length,
        type,
        storageKey,
        wrappedKey: wrapDataKey(this.deps.settings.cipher, e.organisationId, storageKey, dataKey),
        count: tally.count,
        sizeBytes: tally.bytes,
      },
      cursor: tally.exhausted
        ? { typeIndex: e.cursor.typeIndex + 1, afterId: 0 }
        : { typeIndex: e.cursor.typeIndex, afterId: tally.lastId },
    };
  }

  /**
   * Applies one row of the status machine with compare-and-set on the status and cursor read (a cancel, or another
   * worker's slice, in between makes it refuse); the new export or undefined.
   */
  private async move(
    repo: BulkExportRepository,
    e: BulkExport,
    trigger: BulkExportTrigger,
    change: (next: BulkExport, now: Date) => BulkExport,
  ): Promise<BulkExport | undefined> {
    const row = bulkExportTransition(e.status, trigger);
    if (!row) return undefined;
    const now = this.deps.clock.now();
    const next = change({ ...e, status: row.to, updatedAt: now }, now);
    return (await repo.update(next, { status: e.status, cursor: e.cursor })) ? next : undefined;
  }

  private expiry(now: Date): Date {
    return new Date(now.getTime() + this.deps.settings.retentionHours * 3_600_000);
  }

  /** The same API client and the same user as the kick-off (single sign-on tokens share a web app's client id). */
  private isRequester(principal: Principal, e: BulkExport): boolean {
    return (principal.clientId ?? null) === e.requestedByClient && principal.userId === e.requestedByUser;
  }

  private requireStore(): DocumentStore {
    const store = this.deps.settings.store;
    if (!store)
      throw documentError(
        "DOCUMENT_STORE_NOT_CONFIGURED",
        "Bulk export writes its files to the document store, and none is configured (createPractice's documentStore)",
      );
    return store;
  }
}

/** The requester's clinic restriction as the export keeps it (null: every clinic). */
function inClinicsOf(principal: Principal): number[] | null {
  const only = clinicAccess(principal).only;
  return only ? [...only] : null;
}

/** The caller reaches every clinic the export covered (an export of every clinic needs an unrestricted caller). */
function reachesClinicsOf(principal: Principal, e: BulkExport): boolean {
  const only = clinicAccess(principal).only;
  if (!only) return true;
  return e.inClinics !== null && e.inClinics.every((c) => only.includes(c));
}

/** Thrown in a transaction of a job whose lease another worker now holds. */
class LeaseLost extends Error {
  override readonly name = "LeaseLost";
  constructor() {
    super("the export job's lease was lost to another worker");
  }
}

/** How long an export may sit queued or running without a commit before the housekeeping fails it. */
const STALL_MS = 24 * 3_600_000;

const notFound = (id: string) =>
  bulkExportError("BULK_EXPORT_NOT_FOUND", "No such export for this requester", { export_id: id });
