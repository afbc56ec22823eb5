import { randomBytes } from "node:crypto";
import { createPractice, type Practice, type SoapSummaryRenderer, type Storage } from "@openpractice/core";
import { PdfLibSummaryRenderer, ThreadedSummaryRenderer } from "@openpractice/pdf-lib";
import { createSqliteStorage } from "@openpractice/sqlite";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { startBackgroundWork } from "./background-work.js";

const silent = { debug() {}, info() {}, warn() {}, error() {} } as never;

const summary = {
  organisationName: "Org",
  clinicName: null,
  contextId: "ctx-choice",
  noteType: "Daily note",
  patient: { id: 1, name: "Lee Park", dateOfBirth: null },
  caseTitle: null,
  serviceDateTime: "2031-01-01 09:00:00",
  completedAt: null,
  renderingPhysician: "Dr. Kim",
  supervisingPhysician: null,
  sections: [],
  diagnoses: [],
  treatments: [],
  billingRule: "CMS 8-minute",
  signatures: [],
  contentHash: null,
};

/** The renderer the practice's API and jobs use, as the practice's own outbound slot holds it. */
function rendererOf(practice: Practice): SoapSummaryRenderer | undefined {
  let seen: SoapSummaryRenderer | undefined;
  practice.useOutbound((current) => {
    seen = current.summaryRenderer;
    return {};
  });
  return seen;
}

describe("the PDF renderer startBackgroundWork sets", () => {
  let storage: Storage;
  let practice: Practice;

  beforeEach(async () => {
    storage = await createSqliteStorage({ filename: ":memory:" });
    practice = createPractice({ keys: { webhookSecretKey: randomBytes(32), vapid: null }, storage });
  });
  afterEach(() => storage.close());

  it("is a worker-thread renderer by default, and stop() ends its thread", async () => {
    const work = startBackgroundWork(practice, { logger: silent, pollIntervalMs: 60_000 });
    const renderer = rendererOf(practice);
    expect(renderer).toBeInstanceOf(ThreadedSummaryRenderer);
    const threaded = renderer as ThreadedSummaryRenderer;
    expect((await threaded.render(summary, "short")).byteLength).toBeGreaterThan(500);
    expect(threaded.runningThreads).toBe(1);
    await work.stop();
    expect(threaded.runningThreads).toBe(0);
  });

  it("renders on the event loop with summaryThreads 0, and refuses a count that is not a whole number", () => {
    const work = startBackgroundWork(practice, { logger: silent, pollIntervalMs: 60_000, summaryThreads: 0 });
    expect(rendererOf(practice)).toBeInstanceOf(PdfLibSummaryRenderer);
    expect(() => startBackgroundWork(practice, { summaryThreads: -1 })).toThrow(RangeError);
    expect(() => startBackgroundWork(practice, { summaryThreads: 1.5 })).toThrow(/summaryThreads/);
    return work.stop();
  });

  it("leaves a renderer the host gave running at stop(): it is the host's to close", async () => {
    const own = new ThreadedSummaryRenderer();
    const work = startBackgroundWork(practice, {
      logger: silent,
      pollIntervalMs: 60_000,
      outbound: { summaryRenderer: own },
    });
    expect(rendererOf(practice)).toBe(own);
    await own.render(summary, "short");
    await work.stop();
    expect(own.runningThreads).toBe(1);
    await own.close();
    expect(own.runningThreads).toBe(0);
  });
});
