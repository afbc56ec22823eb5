import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { SoapSummary, SoapSummaryRenderer } from "@openpractice/core";
import { afterAll, describe, expect, it } from "vitest";
import { PdfLibSummaryRenderer } from "./pdf-summary-renderer.js";
import { ThreadedSummaryRenderer } from "./threaded-summary-renderer.js";
import { pdftotext } from "../../../test/support/pdftotext.js";

// The thread loads the built worker (dist/summary-render-worker.js): `npm test` builds first.

/** A long note: 1,500 wrapped lines over dozens of pages, a few hundred milliseconds of layout. */
const longNote: SoapSummary = {
  organisationName: "Riverside Physical Therapy",
  clinicName: "Downtown",
  contextId: "ctx-threaded-1",
  noteType: "Initial evaluation",
  patient: { id: 42, name: "Ana Müller", dateOfBirth: "1980-04-02" },
  caseTitle: "Low back pain",
  serviceDateTime: "2026-11-26 10:00:00",
  completedAt: "2026-11-26 10:45:00",
  renderingPhysician: "Dr. Grace Kim",
  supervisingPhysician: null,
  sections: [
    {
      title: "Subjective",
      lines: Array.from(
        { length: 1_500 },
        (_, i) => `Line ${i + 1}: stiffness after a long drive, worse in the morning, eased by walking and heat`,
      ),
    },
  ],
  diagnoses: [{ code: "M54.50", description: "Low back pain, unspecified", primary: true }],
  treatments: [{ code: "97110", description: "Therapeutic exercise", minutes: 30, units: 2, modifiers: ["GP"] }],
  billingRule: "CMS 8-minute",
  signatures: [{ role: "Rendering", name: "Dr. Grace Kim", signedAt: "2026-11-26 10:44:00" }],
  contentHash: "sha256:abc",
};

const textOf = (pdf: Uint8Array) => pdftotext(pdf);

/** Turns of the event loop (setImmediate callbacks) that ran while one render was under way. */
async function loopTurnsDuring(renderer: SoapSummaryRenderer): Promise<{ turns: number; pdf: Uint8Array }> {
  let turns = 0;
  let spinning = true;
  const spin = () => {
    if (!spinning) return;
    turns++;
    setImmediate(spin);
  };
  setImmediate(spin);
  const pdf = await renderer.render(longNote, "full");
  spinning = false;
  return { turns, pdf };
}

describe("ThreadedSummaryRenderer", () => {
  const threaded = new ThreadedSummaryRenderer();
  afterAll(() => threaded.close());

  it("renders what PdfLibSummaryRenderer renders, read back by pdftotext", async () => {
    const onLoop = await new PdfLibSummaryRenderer().render(longNote, "short");
    const inThread = await threaded.render(longNote, "short");
    expect(inThread).toBeInstanceOf(Uint8Array);
    expect(textOf(inThread)).toBe(textOf(onLoop));
    expect(textOf(inThread)).toContain("Ana Müller");
    expect(threaded.contentType).toBe("application/pdf");
  });

  it("leaves the event loop free while it lays out a long PDF, where the plain renderer holds it", async () => {
    await threaded.render(longNote, "short"); // the thread is up and pdf-lib loaded in it
    const onLoop = await loopTurnsDuring(new PdfLibSummaryRenderer());
    const inThread = await loopTurnsDuring(threaded);
    // pdf-lib yields to the loop now and then (about a hundred turns for this note); in a thread the loop turns
    // freely the whole time. A ratio of counts, not a time: it holds on a loaded machine too.
    expect(inThread.turns).toBeGreaterThan(20 * Math.max(onLoop.turns, 1));
    expect(textOf(inThread.pdf)).toBe(textOf(onLoop.pdf));
    expect(textOf(inThread.pdf)).toContain("Line 1500:");
  });

  it("rejects a render that fails in the thread with its error, and renders the next one", async () => {
    const broken = { ...longNote, sections: null } as unknown as SoapSummary;
    await expect(threaded.render(broken, "full")).rejects.toThrow(TypeError);
    expect(textOf(await threaded.render(longNote, "short"))).toContain("Low back pain");
  });

  it("lets renders under way finish on close(), ends its thread, and starts one again for a later render", async () => {
    const renderer = new ThreadedSummaryRenderer();
    expect(renderer.runningThreads).toBe(0);
    const underWay = renderer.render(longNote, "full");
    expect(renderer.runningThreads).toBe(1);
    await renderer.close();
    expect(textOf(await underWay)).toContain("Line 1500:");
    expect(renderer.runningThreads).toBe(0);
    expect(textOf(await renderer.render(longNote, "short"))).toContain("Ana Müller");
    expect(renderer.runningThreads).toBe(1);
    await renderer.close();
    expect(renderer.runningThreads).toBe(0);
  });

  it("refuses a thread count that is not a positive whole number", () => {
    for (const threads of [0, -1, 1.5]) expect(() => new ThreadedSummaryRenderer({ threads })).toThrow(RangeError);
  });

  it("never keeps the process alive: a script that renders and never closes exits by itself", () => {
    const shortNote = { ...longNote, sections: [] };
    const dist = fileURLToPath(new URL("../dist/index.js", import.meta.url));
    const script = `
      const { ThreadedSummaryRenderer } = await import(${JSON.stringify(dist)});
      const pdf = await new ThreadedSummaryRenderer({ idleTimeoutMs: 600000 }).render(${JSON.stringify(shortNote)}, "short");
      console.log("rendered", pdf.length);`;
    // A thread that held the process would run into the timeout (execFileSync then throws). Run with -e and
    // --input-type, a flag a thread that inherited the process's flags would refuse for its file.
    const out = execFileSync(process.execPath, ["--input-type=module", "-e", script], {
      encoding: "utf8",
      timeout: 20_000,
    });
    expect(out).toMatch(/^rendered \d+/);
  });
});
