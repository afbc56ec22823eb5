import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import {
  BULK_EXPORT_QUEUE,
  BULK_EXPORT_STATUSES,
  BULK_EXPORT_TRANSITIONS,
  BULK_EXPORT_TRIGGERS,
  bulkExportTransition,
  createPractice,
  type DocumentStore,
  type Practice,
  type Principal,
} from "@openpractice/core";
import { FileSystemDocumentStore } from "@openpractice/files";
import { MemoryStorage } from "@openpractice/testing";
import { afterEach, describe, expect, it } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";

// The export's status table, row by row and every refused pair; and its job's slices: each file committed with the
// cursor, so a run that dies between writing a file and recording it resumes at the last file recorded, and the
// bytes it left are an orphan the document store's sweep removes (the recorded files it keeps).

const ALLOWED: Record<string, string> = {
  "queued/start": "running",
  "running/slice": "running",
  "queued/finish": "completed",
  "running/finish": "completed",
  "queued/fail": "failed",
  "running/fail": "failed",
  "queued/cancel": "cancelled",
  "running/cancel": "cancelled",
  "completed/cancel": "cancelled",
  "failed/cancel": "cancelled",
};

describe("bulk export status table", () => {
  for (const from of BULK_EXPORT_STATUSES)
    for (const trigger of BULK_EXPORT_TRIGGERS) {
      const pair = `${from}/${trigger}`;
      if (pair in ALLOWED)
        it(`${pair} → ${ALLOWED[pair]}`, () => expect(bulkExportTransition(from, trigger)?.to).toBe(ALLOWED[pair]));
      else it(`${pair} is refused`, () => expect(bulkExportTransition(from, trigger)).toBeUndefined());
    }

  it("has exactly the rows above, each once; a slice records its file and moves the cursor", () => {
    expect(BULK_EXPORT_TRANSITIONS.map((t) => `${t.from}/${t.trigger}`).sort()).toEqual(Object.keys(ALLOWED).sort());
    expect(bulkExportTransition("running", "slice")?.effects).toEqual(["record_file", "advance_cursor"]);
    for (const t of BULK_EXPORT_TRANSITIONS.filter((t) => t.to === "completed" || t.to === "failed"))
      expect(t.effects).toContain("set_expiry");
  });
});

const principal: Principal = {
  organisationId: 1,
  userId: 101,
  name: "Rosa",
  clientId: "opc_analytics",
  scopes: ["read"],
  clinicIds: [],
  roles: [],
};

describe("bulk export job slices", () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  /** Runs the queue's due jobs one at a time as the worker would, until none is left. */
  async function drain(practice: Practice, storage: MemoryStorage) {
    for (let round = 0; round < 50; round++) {
      const [job] = await storage.repositories.jobs.claim(BULK_EXPORT_QUEUE, {
        limit: 1,
        now: new Date(Date.now() + 3_600_000),
        leaseMs: 60_000,
        leaseToken: `lease-${round}`,
      });
      if (!job) return;
      await practice.bulkExports.run(job, {
        finalAttempt: false,
        complete: (r) => r.jobs.complete(job.id, job.leaseToken, new Date(), "test"),
        renew: async (r) =>
          (await r.jobs.renewLeases([{ id: job.id, leaseToken: job.leaseToken }], new Date(), 60_000)) > 0,
      });
    }
    throw new Error("the export did not settle");
  }

  /** A practice on memory storage with `patients` patients and an export of them kicked off, over `store`. */
  async function exportOver(store: DocumentStore, patients: number) {
    const storage = new MemoryStorage();
    const practice = createPractice({ storage, keys: testPracticeKeys(), documentStore: store });
    for (let i = 0; i < patients; i++)
      await practice.patients.register(principal, { firstName: `P${i}`, lastName: "Fail", dateOfBirth: "1990-01-01" });
    const e = await practice.bulkExports.kickOff(principal, {
      kind: "patient",
      types: ["Patient"],
      since: null,
      requestUrl: "http://127.0.0.1/fhir/R4/Patient/$export",
    });
    const [job] = await storage.repositories.jobs.claim(BULK_EXPORT_QUEUE, {
      limit: 1,
      now: new Date(Date.now() + 60_000),
      leaseMs: 60_000,
      leaseToken: "lease",
    });
    if (!job) throw new Error("no job queued");
    const run = (finalAttempt: boolean) =>
      practice.bulkExports.run(job, {
        finalAttempt,
        complete: (r) => r.jobs.complete(job.id, job.leaseToken, new Date(), "test"),
        renew: async (r) =>
          (await r.jobs.renewLeases([{ id: job.id, leaseToken: job.leaseToken }], new Date(), 60_000)) > 0,
      });
    return { practice, storage, e, run };
  }

  it("fails the export on the job's last attempt (before that the job retries), with an expiry", async () => {
    const broken: DocumentStore = {
      kind: "broken",
      put: async () => Promise.reject(new Error("disk full")),
      get: async () => Promise.reject(new Error("disk full")),
      delete: async () => undefined,
      list: async function* () {},
    };
    const { practice, e, run } = await exportOver(broken, 3);
    await expect(run(false)).rejects.toThrow("disk full");
    expect((await practice.bulkExports.status(principal, e.id)).status).toBe("running");
    await expect(run(true)).resolves.toBe("completed");
    const failed = await practice.bulkExports.status(principal, e.id);
    expect(failed).toMatchObject({ status: "failed", error: "disk full", files: [] });
    expect(failed.expiresAt?.getTime()).toBeGreaterThan(Date.now());
    // No longer in progress: it frees its place, and the purge takes it once expired.
    expect(await practice.storage.repositories.bulkExports.countActive(1)).toBe(0);
  });

  it("a worker that lost its job's lease commits nothing more, and never fails the export", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bulk-export-"));
    dirs.push(dir);
    const files = new FileSystemDocumentStore({ directory: dir });
    const { practice, storage, e } = await exportOver(files, 3);
    const [job] = await storage.repositories.jobs.claim(BULK_EXPORT_QUEUE, {
      limit: 1,
      now: new Date(Date.now() + 3_600_000),
      leaseMs: 60_000,
      leaseToken: "another-worker",
    });
    // exportOver's claim ran out and another worker claimed the job: this run's renewals fail.
    expect(job).toBeDefined();
    const stale = await practice.bulkExports
      .run(job!, {
        finalAttempt: true,
        complete: async () => false,
        renew: async () => false,
      })
      .then(
        () => "completed",
        (error: Error) => error.name,
      );
    expect(stale).toBe("LeaseLost");
    const after = await practice.bulkExports.status(principal, e.id);
    expect(after).toMatchObject({ status: "queued", exported: 0, files: [] });
    const left: string[] = [];
    for await (const o of files.list()) left.push(o.key);
    expect(left).toEqual([]);
  });

  it("the housekeeping fails an export that made no progress for a day, then purges it once expired", async () => {
    let now = new Date("2026-11-29T08:00:00Z");
    const storage = new MemoryStorage();
    const dir = mkdtempSync(join(tmpdir(), "bulk-export-"));
    dirs.push(dir);
    const practice = createPractice({
      storage,
      keys: testPracticeKeys(),
      documentStore: new FileSystemDocumentStore({ directory: dir }),
      clock: { now: () => now },
      bulkExportRetentionHours: 2,
    });
    const e = await practice.bulkExports.kickOff(principal, {
      kind: "system",
      types: ["Organization"],
      since: null,
      requestUrl: "http://127.0.0.1/fhir/R4/$export",
    });
    now = new Date(now.getTime() + 23 * 3_600_000);
    expect(await practice.bulkExports.purgeExpired(10)).toBe(0);
    expect((await practice.bulkExports.status(principal, e.id)).status).toBe("queued");
    now = new Date(now.getTime() + 2 * 3_600_000);
    expect(await practice.bulkExports.purgeExpired(10)).toBe(0);
    const failed = await practice.bulkExports.status(principal, e.id);
    expect(failed).toMatchObject({ status: "failed", error: "no progress for 24 hours" });
    now = new Date(now.getTime() + 2 * 3_600_000);
    expect(await practice.bulkExports.purgeExpired(10)).toBe(1);
    await expect(practice.bulkExports.status(principal, e.id)).rejects.toMatchObject({ code: "BULK_EXPORT_NOT_FOUND" });
  });

  it("a cancel while a slice is written wins: the slice's bytes are removed and the job stops", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bulk-export-"));
    dirs.push(dir);
    const files = new FileSystemDocumentStore({ directory: dir });
    let cancel: () => Promise<void> = async () => undefined;
    const cancelling: DocumentStore = {
      kind: "cancelling",
      put: async (key, content) => {
        const written = await files.put(key, content);
        await cancel();
        return written;
      },
      get: (key, range) => files.get(key, range),
      delete: (key) => files.delete(key),
      list: () => files.list(),
    };
    const { practice, e, run } = await exportOver(cancelling, 3);
    cancel = () => practice.bulkExports.cancel(principal, e.id);
    await expect(run(false)).resolves.toBe("completed");
    await expect(practice.bulkExports.status(principal, e.id)).rejects.toMatchObject({ code: "BULK_EXPORT_NOT_FOUND" });
    const left: string[] = [];
    for await (const o of files.list()) left.push(o.key);
    expect(left).toEqual([]);
    expect((await practice.storage.repositories.bulkExports.findById(1, e.id))?.status).toBe("cancelled");
  });

  it("resumes after a crash at the last file recorded; the sweep removes the unrecorded bytes only", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bulk-export-"));
    dirs.push(dir);
    const files = new FileSystemDocumentStore({ directory: dir });
    let puts = 0;
    // The second file's bytes are written, then the process "dies" before its slice commits.
    const crashing: DocumentStore = {
      kind: "crashing",
      put: async (key, content) => {
        const written = await files.put(key, content);
        if (++puts === 2) throw new Error("process killed");
        return written;
      },
      get: (key, range) => files.get(key, range),
      delete: (key) => files.delete(key),
      list: () => files.list(),
    };
    const storage = new MemoryStorage();
    const practice = createPractice({
      storage,
      keys: testPracticeKeys(),
      documentStore: crashing,
      bulkExportResourcesPerFile: 100,
    });
    for (let i = 0; i < 250; i++)
      await practice.patients.register(principal, { firstName: `P${i}`, lastName: "Slice", dateOfBirth: "1990-01-01" });
    const e = await practice.bulkExports.kickOff(principal, {
      kind: "patient",
      types: ["Patient"],
      since: null,
      requestUrl: "http://127.0.0.1/fhir/R4/Patient/$export",
    });
    await expect(drain(practice, storage)).rejects.toThrow("process killed");
    const afterCrash = await practice.bulkExports.status(principal, e.id);
    expect(afterCrash.files.map((f) => f.count)).toEqual([100]);
    expect(afterCrash.cursor.afterId).toBeGreaterThan(0);
    // The job is still pending (the runner would reschedule it): the next runs resume at the cursor.
    await storage.transaction(async (tx) => {
      const [job] = await tx.jobs.claim(BULK_EXPORT_QUEUE, {
        limit: 1,
        now: new Date(Date.now() + 7_200_000),
        leaseMs: 60_000,
        leaseToken: "after-crash",
      });
      expect(job).toBeDefined();
      await tx.jobs.reschedule(job!.id, "after-crash", new Date(), "process killed");
    });
    await drain(practice, storage);
    const done = await practice.bulkExports.status(principal, e.id);
    expect(done.status).toBe("completed");
    expect(done.files.map((f) => f.count)).toEqual([100, 100, 50]);
    const ids: string[] = [];
    for (const f of done.files) {
      const { content } = await practice.bulkExports.file(principal, e.id, f.position);
      const chunks: Buffer[] = [];
      for await (const c of content) chunks.push(Buffer.from(c));
      ids.push(
        ...Buffer.concat(chunks)
          .toString("utf8")
          .trimEnd()
          .split("\n")
          .map((l) => JSON.parse(l).id),
      );
    }
    expect(new Set(ids).size).toBe(250);
    // Four objects in the store: three recorded files and the crashed slice's bytes, which the sweep removes.
    const stored = async () => {
      const keys: string[] = [];
      for await (const o of files.list()) keys.push(o.key);
      return keys.sort();
    };
    expect(await stored()).toHaveLength(4);
    const removed = await practice.patientDocuments.sweepOrphans(0);
    expect(removed).toHaveLength(1);
    expect(await stored()).toEqual(done.files.map((f) => f.storageKey).sort());
  });
});
