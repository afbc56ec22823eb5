import { randomBytes } from "node:crypto";
import {
  createPractice,
  patientFromDraft,
  SOAP_SUMMARY_QUEUE,
  toPatientRecord,
  type Repositories,
  type Storage,
} from "@openpractice/core";
import { PdfLibSummaryRenderer } from "@openpractice/pdf-lib";
import { createSqliteStorage } from "@openpractice/sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { JobRunner } from "./job-runner.js";
import { builtInJobHandlers } from "./background-work.js";

const T0 = new Date("2031-01-01T00:00:00Z");
const silent = { debug() {}, info() {}, warn() {}, error() {} } as never;

describe("the SOAP summary job when the store keeps failing", () => {
  let storage: Storage;
  let now: Date;

  beforeEach(async () => {
    const real = await createSqliteStorage({ filename: ":memory:" });
    // Real SQLite, except that storing the rendered PDFs fails, as a lost connection would, every time.
    const soapDocuments = Object.assign(Object.create(real.repositories.soapDocuments), {
      put: async () => Promise.reject(new Error("connection lost")),
    });
    const repositories = { ...real.repositories, soapDocuments } as Repositories;
    storage = Object.assign(Object.create(real), {
      repositories,
      transaction: <T>(work: (tx: Repositories) => Promise<T>) =>
        real.transaction((tx) => work({ ...tx, soapDocuments })),
      close: () => real.close(),
    }) as Storage;
    now = T0;
  });
  afterEach(async () => {
    await storage.close();
  });

  it("retries with backoff, then marks the summary FAILED with the last reason when the attempts run out", async () => {
    const practice = createPractice({
      keys: { webhookSecretKey: randomBytes(32), vapid: null },
      storage,
      clock: { now: () => now },
      summaryRenderer: new PdfLibSummaryRenderer(),
    });
    const r = storage.repositories;
    await r.organisations.ensure({ id: 1, name: "o", plan: "free", now: T0 });
    const patientId = (
      await r.patients.insertIfAbsent(
        toPatientRecord(patientFromDraft({ firstName: "Job", lastName: "Test", dateOfBirth: "1990-01-01" }, 1, T0)),
      )
    ).patient.id;
    await r.soapNotes.insert({
      contextId: "ctx-job",
      organisationId: 1,
      clinicId: 1,
      patientId,
      serviceCaseId: null,
      caseTitle: null,
      appointmentId: null,
      type: "FOLLOWUP_SOAP",
      category: null,
      serviceDateTime: T0,
      entryDateTime: T0,
      status: "COMPLETED",
      completed: true,
      completedAt: T0,
      renderingPhysician: 1,
      supervisingPhysician: null,
      submissionIds: { Subjective: "s", Objective: "o", Assessment: "a", Plan: "p" },
      treatmentSheetId: 0,
      planOfCareId: null,
      submitForBilling: false,
      billingStatus: "NOT_SUBMITTED",
      summaryDocUrl: null,
      shortSummaryUrl: null,
      summaryStatus: "PENDING",
      summaryFailure: null,
      soapWithoutAppointment: true,
      parent: null,
      dataCarryForwardFrom: null,
      createdAt: T0,
      updatedAt: T0,
    });
    await r.jobs.enqueue({
      queue: SOAP_SUMMARY_QUEUE,
      payload: { organisationId: 1, contextId: "ctx-job" },
      runAt: T0,
    });
    const runner = new JobRunner({
      storage,
      clock: practice.clock,
      ids: practice.ids,
      logger: silent,
      workerId: "w",
      handlers: builtInJobHandlers(practice),
      pollIntervalMs: 10,
      maxAttempts: 2,
    });

    expect(await runner.pollOnce()).toBe(1);
    // A store failure may pass: the job waits for its retry and the summary stays PENDING.
    expect(await r.soapNotes.findByContextId(1, "ctx-job")).toMatchObject({
      summaryStatus: "PENDING",
      summaryFailure: null,
    });
    expect(await runner.pollOnce()).toBe(0);

    now = new Date(T0.getTime() + 60_000);
    expect(await runner.pollOnce()).toBe(1);
    expect(await r.soapNotes.findByContextId(1, "ctx-job")).toMatchObject({
      summaryStatus: "FAILED",
      summaryFailure: "gave up after 2 attempts: Error: connection lost",
    });
    expect((await r.soapNotes.historyOf(1, "ctx-job")).map((h) => [h.action, h.details])).toEqual([
      ["SUMMARY_FAILED", { reason: "gave up after 2 attempts: Error: connection lost" }],
    ]);
    // The job is over: nothing to claim, however late.
    now = new Date(T0.getTime() + 86_400_000);
    expect(await runner.pollOnce()).toBe(0);
  });
});
