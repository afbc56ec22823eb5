// PDF summary rendering of completed SOAP notes, in process (what the
// soap.render-summary job does), against a baseline in the same process: a
// one-line pdf-lib document (the floor pdf-lib itself costs). See docs/performance.md.
//
//   npm run bench:pdf
//
// Env: BENCH_PDF_RUNS (300 notes per measurement).
import { join } from "node:path";
import { createPractice, patientFromDraft, toPatientRecord } from "@openpractice/core";
import { v1SummaryPath } from "@openpractice/http";
import { PdfLibSummaryRenderer } from "@openpractice/pdf-lib";
import { openStorage } from "@openpractice/runtime";
import { PDFDocument, StandardFonts } from "pdf-lib";
import { busyShare, intEnv, machineLine, temp } from "./harness.mjs";

const RUNS = intEnv("BENCH_PDF_RUNS", 300);
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const f2 = (n) => n.toFixed(2);

/** Runs `fn` RUNS times after 20 warm-up calls; milliseconds per call. */
async function measure(fn) {
  for (let i = 0; i < 20; i++) await fn(i);
  const times = [];
  for (let i = 0; i < RUNS; i++) {
    const t = performance.now();
    await fn(i);
    times.push(performance.now() - t);
  }
  return { p50: pct(times, 50), p95: pct(times, 95), p99: pct(times, 99) };
}

// A realistic note: four sections of several answers, two diagnoses, three treatment lines, two signatures.
const paragraph =
  "Patient reports low back pain after lifting boxes at work, worse in the morning and after sitting for more than thirty minutes; no numbness or weakness. ";
const summary = {
  organisationName: "Riverside Therapy",
  clinicName: "Main Street",
  contextId: "5f0c2c4e-8d1e-4b7e-9a51-3f1d2a6b7c90",
  noteType: "INITIAL_SOAP",
  patient: { id: 4211, name: "Ada Quill", dateOfBirth: "1970-07-07" },
  caseTitle: "Low back pain",
  serviceDateTime: "2031-08-31 20:00 (America/Chicago)",
  completedAt: "2031-08-31 21:10 (America/Chicago)",
  renderingPhysician: "Dana Reyes (user 101)",
  supervisingPhysician: "Helen Marsh (user 103)",
  sections: ["Subjective", "Objective", "Assessment", "Plan"].map((title) => ({
    title,
    lines: Array.from({ length: 8 }, (_, i) => `Finding ${i + 1}: ${paragraph.repeat(1 + (i % 3))}`),
  })),
  diagnoses: [
    { code: "M54.50", description: "Low back pain, unspecified", primary: true },
    { code: "M54.16", description: "Radiculopathy, lumbar region", primary: false },
  ],
  treatments: [
    { code: "97110", description: "Therapeutic exercise", minutes: 33, units: 2, modifiers: ["GP"] },
    { code: "97140", description: "Manual therapy", minutes: 7, units: 1, modifiers: ["GP", "59"] },
    { code: "97161", description: "Evaluation, low complexity", minutes: 30, units: 1, modifiers: [] },
  ],
  billingRule: "cms_8_minute",
  signatures: [
    { role: "Signed by", name: "Dana Reyes (user 101)", signedAt: "2031-08-31 21:00 (America/Chicago)" },
    { role: "Co-signed by", name: "Helen Marsh (user 103)", signedAt: "2031-08-31 21:05 (America/Chicago)" },
  ],
  contentHash: `sha256:${"ab".repeat(32)}`,
};

console.log(`${machineLine()}; CPU busy before the run: ${(await busyShare()).toFixed(1)}%; ${RUNS} runs each`);
const renderer = new PdfLibSummaryRenderer();

const baseline = await measure(async () => {
  const doc = await PDFDocument.create();
  const font = await doc.embedFont(StandardFonts.Helvetica);
  doc.addPage([612, 792]).drawText("SOAP note summary", { x: 54, y: 700, size: 12, font });
  await doc.save();
});
const full = await measure(() => renderer.render(summary, "full"));
const short = await measure(() => renderer.render(summary, "short"));
const both = await measure(() => Promise.all([renderer.render(summary, "full"), renderer.render(summary, "short")]));

// The whole job on SQLite: read the note, its forms, sheet and signatures, render both, store both, set the URLs.
const storage = await openStorage(`sqlite:${join(temp, "pdf.db")}`);
let job;
try {
  const now = new Date("2031-08-31T20:00:00Z");
  const practice = createPractice({ storage, summaryRenderer: renderer, clock: { now: () => now } });
  const r = storage.repositories;
  const author = { organisationId: 1, userId: 101, name: null, scopes: ["write"], clinicIds: [], roles: [] };
  await r.organisations.ensure({ id: 1, name: "Riverside Therapy", plan: "free", now });
  const clinic = (
    await r.organisations.ensureClinic({ organisationId: 1, name: "Main Street", timeZone: "America/Chicago" })
  ).id;
  await r.organisations.upsertProvider({
    organisationId: 1,
    userId: 101,
    firstName: "Dana",
    lastName: "Reyes",
    npi: null,
    supervisingUserId: null,
    clinicIds: [clinic],
  });
  const patientId = (
    await r.patients.insertIfAbsent(
      toPatientRecord(patientFromDraft({ firstName: "Ada", lastName: "Quill", dateOfBirth: "1970-07-07" }, 1, now)),
    )
  ).patient.id;
  await practice.billingCatalog.upsert(author, [
    {
      code: "97110",
      description: "Therapeutic exercise",
      timed: true,
      modifiers: [{ cptModifierId: 1, cptModifierCode: "GP", className: "GP", description: "PT plan", filter: false }],
    },
    { code: "97161", description: "Evaluation, low complexity", timed: false },
  ]);
  const codes = await practice.billingCatalog.applicableAll(author);
  const note = await practice.soapNotes.create(author, {
    patientId,
    type: "INITIAL_SOAP",
    soapWithoutAppointment: true,
  });
  for (const section of ["Subjective", "Objective", "Plan"]) {
    await practice.soapNotes.writeForm(author, {
      submissionId: note.submissionIds[section],
      contextId: note.contextId,
      version: 2,
      partialResponse: Object.fromEntries(
        Array.from({ length: 8 }, (_, i) => [`response.${section}.finding_${i + 1}`, paragraph.repeat(1 + (i % 3))]),
      ),
    });
  }
  await practice.soapNotes.writeForm(author, {
    submissionId: note.submissionIds.Assessment,
    contextId: note.contextId,
    version: 2,
    partialResponse: {
      "response.Assessment.diagnosis.medical_diagnosis": summary.diagnoses.map((d, i) => ({
        uuid: `u${i}`,
        id: i + 1,
        code: d.code,
        description: d.description,
        revision: "ICD10",
        billing_type: "BILLABLE",
        is_primary: d.primary,
      })),
    },
  });
  await practice.treatmentSheets.create(author, {
    patientId,
    contextId: note.contextId,
    treatments: [
      { treatmentClassId: codes[0].id, duration: 38, units: 3, modifiers: [{ cptModifierId: 1 }] },
      { treatmentClassId: codes[1].id, duration: 30, units: 1, modifiers: [] },
    ],
  });
  await practice.soapWorkflow.sign(author, note.contextId);
  await practice.soapWorkflow.complete(author, note.contextId);
  job = await measure(() => practice.soapDocuments.render(1, note.contextId, v1SummaryPath));
} finally {
  await storage.close();
}

const row = (name, m) => `| ${name} | ${f2(m.p50)} | ${f2(m.p95)} | ${f2(m.p99)} | ${f2(m.p95 / baseline.p95)} |`;
console.log("| measurement | p50 ms | p95 ms | p99 ms | p95 / baseline |\n| --- | ---: | ---: | ---: | ---: |");
console.log(row("baseline: one-line pdf-lib document", baseline));
console.log(row("full summary", full));
console.log(row("short summary (1 page)", short));
console.log(row("both summaries of a note", both));
console.log(row("the whole job on SQLite (read, render both, store, set URLs)", job));
console.log(`goal: p95 under 50 ms per note: ${job.p95 < 50 ? "met" : "missed"} (${f2(job.p95)} ms)`);
