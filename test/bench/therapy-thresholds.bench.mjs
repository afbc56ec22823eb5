// Medicare therapy thresholds (docs/medicare-therapy.md, issue 50): what the threshold lookup adds to a
// treatment-sheet write. A Medicare Part B beneficiary with BENCH_PRIOR_VISITS (200) completed visits this year (3
// counted lines each in the ledger) among BENCH_PATIENTS (500) such patients, and a patient of a commercial payer
// with the same sheet: `practice.treatmentSheets.replace` of each, in turn, in process. The baseline is the same
// write for the commercial patient (the Medicare rules read its case and payer and stop); the lookup alone
// (`visitThresholdCheck` in a read) is timed too. Prints p50/p95/p99, the added p95 and the plan of the ledger's
// aggregate. See docs/performance.md ("Medicare therapy thresholds").
//
//   npm run bench:therapy-thresholds                                 # SQLite
//   npm run bench:therapy-thresholds:postgres                        # a throw-away PostgreSQL
//
// Exits 1 when a Medicare write does not propose KX where the ledger says it must, or the commercial one answers
// a Medicare check.
import { join } from "node:path";
import BetterSqlite3 from "better-sqlite3";
import pg from "pg";
import { createPractice, visitThresholdCheck } from "@openpractice/core";
import { openStorage } from "@openpractice/runtime";
import { testPracticeKeys } from "@openpractice/testing";
import { intEnv, machineLine, runBenchmark, sampleLatency, stats, temp } from "./harness.mjs";

const PRIOR_VISITS = intEnv("BENCH_PRIOR_VISITS", 200);
const PATIENTS = intEnv("BENCH_PATIENTS", 500);
const SAMPLES = intEnv("BENCH_SAMPLES", 1_000);
const PRINCIPAL = {
  organisationId: 1,
  userId: 101,
  name: "Bench",
  scopes: ["admin", "read", "write"],
  clinicIds: [],
  roles: [],
};
const ms = (n) => `${n.toFixed(2)} ms`;
const YEAR = new Date().getUTCFullYear();
const MODS = [
  { cptModifierId: 1, cptModifierCode: "GP", className: "GP", description: "PT plan", filter: false },
  { cptModifierId: 2, cptModifierCode: "GO", className: "GO", description: "OT plan", filter: false },
  { cptModifierId: 4, cptModifierCode: "KX", className: "KX", description: "Threshold", filter: false },
];
const CODES = ["97110", "97140", "97530"];

async function setUp(practice) {
  const r = practice.storage.repositories;
  const now = new Date();
  await r.organisations.ensure({ id: 1, name: "Bench", plan: "free", now });
  const clinic = await r.organisations.ensureClinic({ organisationId: 1, name: "Main", timeZone: "UTC" });
  await r.organisations.upsertProvider({
    organisationId: 1,
    userId: 101,
    firstName: "Dana",
    lastName: "Reyes",
    npi: null,
    supervisingUserId: null,
    clinicIds: [clinic.id],
  });
  await r.catalog.enableSpecialization(1, "MSK");
  await practice.billingCatalog.upsert(
    PRINCIPAL,
    CODES.map((code) => ({ code, description: `Code ${code}`, timed: true, modifiers: MODS })),
  );
  await practice.feeSchedules.import(
    PRINCIPAL,
    CODES.map((code, i) => ({ line: i + 2, year: String(YEAR), code, allowedAmount: "31.50" })),
  );
  const catalog = new Map((await r.billingCodes.list(1)).map((c) => [c.code, c.id]));
  const partB = await practice.payers.create(PRINCIPAL, {
    payerId: "MACB1",
    name: "Part B",
    type: "medicare",
    medicarePartB: true,
  });
  const acme = await practice.payers.create(PRINCIPAL, { payerId: "ACME1", name: "Acme", type: "commercial" });
  /** A patient with a case on a card of `payer`, and an open note with a sheet. */
  const patientOn = async (payer, i) => {
    const { patient } = await practice.patients.register(PRINCIPAL, {
      clinicId: clinic.id,
      firstName: `Ruth${i}`,
      lastName: `Bench${i}`,
      dateOfBirth: "1950-03-03",
    });
    const card = await practice.coverages.create(PRINCIPAL, patient.id, {
      payerRef: payer.id,
      memberId: `M${i}`,
      priority: "primary",
    });
    const c = await practice.cases.create(PRINCIPAL, {
      patientId: patient.id,
      caseTitle: "Back",
      specialization: "MSK",
      clinicId: clinic.id,
      icdCodes: [{ id: 1, code: "M54.50", description: "Low back pain", revision: "ICD10" }],
      insuranceCards: [{ insuranceCardId: card.id, insuranceCardType: "PRIMARY" }],
    });
    return { patientId: patient.id, caseId: c.patientCase.id };
  };
  const lines = (mods) =>
    CODES.map((code) => ({ treatmentClassId: catalog.get(code), duration: 15, units: 1, modifiers: mods(code) }));
  const discipline = (code) => [{ cptModifierId: code === "97530" ? 2 : 1 }];
  // The ledger: every Medicare patient's prior visits (3 lines each: two PT, one OT), dated earlier this year.
  const started = performance.now();
  const medicare = [];
  for (let p = 0; p < PATIENTS; p++) {
    const m = await patientOn(partB, p);
    medicare.push(m);
    const charges = [];
    for (let v = 0; v < PRIOR_VISITS; v++) {
      const day = new Date(Date.UTC(YEAR, 0, 1) + Math.floor((v * 300) / PRIOR_VISITS) * 86_400_000)
        .toISOString()
        .slice(0, 10);
      for (const code of CODES)
        charges.push({
          organisationId: 1,
          patientId: m.patientId,
          year: YEAR,
          bucket: code === "97530" ? "OT" : "PT_SLP",
          source: "visit",
          contextId: `bench-${p}-${v}`,
          serviceDate: day,
          code,
          units: 1,
          allowedCents: 3150,
          priced: true,
          kx: false,
          description: null,
          recordedBy: null,
          createdAt: now,
        });
    }
    await practice.storage.transaction((tx) => tx.therapyCharges.insert(charges));
  }
  const commercial = await patientOn(acme, PATIENTS);
  console.log(
    `loaded ${PATIENTS} Medicare patients x ${PRIOR_VISITS} visits (${PATIENTS * PRIOR_VISITS * 3} ledger rows) in ${((performance.now() - started) / 1000).toFixed(1)} s`,
  );
  const openSheet = async (m) => {
    const note = await practice.soapNotes.create(PRINCIPAL, {
      patientId: m.patientId,
      type: "FOLLOWUP_SOAP",
      serviceCaseId: m.caseId,
      soapWithoutAppointment: true,
    });
    const sheet = await practice.treatmentSheets.create(PRINCIPAL, {
      patientId: m.patientId,
      contextId: note.contextId,
      treatments: lines(discipline),
    });
    return { ...m, note, sheetId: sheet.sheet.id };
  };
  const sheets = [];
  for (let p = 0; p < Math.min(PATIENTS, 20); p++) sheets.push(await openSheet(medicare[p]));
  return { sheets, commercialSheet: await openSheet(commercial), treatments: lines(discipline) };
}

const sample = (label, fn) => sampleLatency(label, fn, { samples: SAMPLES, warmup: 50, width: 52 });

const TOTALS_SQL = (p) =>
  `select bucket, sum(allowed_cents) from therapy_charges where organisation_id = ${p(1)} and patient_id = ${p(2)} and year = ${p(3)} and service_date <= ${p(4)} group by bucket`;

async function planOf(databaseUrl, patientId) {
  const day = `${YEAR}-12-31`;
  if (databaseUrl.startsWith("sqlite")) {
    const db = new BetterSqlite3(databaseUrl.replace(/^sqlite:/, ""), { readonly: true });
    const plan = db
      .prepare(`explain query plan ${TOTALS_SQL(() => "?")}`)
      .all(1, patientId, YEAR, day)
      .map((r) => r.detail);
    db.close();
    return plan.join("\n");
  }
  const pool = new pg.Pool({ connectionString: databaseUrl, max: 1 });
  await pool.query("analyze therapy_charges");
  const r = await pool.query(`explain (analyze, costs off) ${TOTALS_SQL((n) => `$${n}`)}`, [1, patientId, YEAR, day]);
  await pool.end();
  return r.rows.map((row) => row["QUERY PLAN"]).join("\n");
}

async function main() {
  console.log(machineLine());
  const databaseUrl = process.env.DATABASE_URL ?? `sqlite:${join(temp, "therapy.db")}`;
  const storage = await openStorage(databaseUrl);
  const practice = createPractice({ storage, keys: testPracticeKeys() });
  const { sheets, commercialSheet, treatments } = await setUp(practice);
  console.log(`${SAMPLES} samples each; sheets of ${sheets.length} Medicare patients in turn; year ${YEAR}`);
  const medicareWrite = await sample("sheet write, Medicare, 200 prior visits", async (i) => {
    const s = sheets[i % sheets.length];
    const written = await practice.treatmentSheets.replace(PRINCIPAL, s.sheetId, treatments);
    // 200 visits of $63.00 PT+SLP and $31.50 OT are past every year's KX threshold in both buckets: KX on every line.
    if (!written.medicare || written.medicare.lines.filter((l) => l.kxProposed).length !== 3)
      throw new Error(`patient ${s.patientId}: KX not proposed as the ledger says`);
  });
  const commercialWrite = await sample("baseline: sheet write, commercial payer", async () => {
    const written = await practice.treatmentSheets.replace(PRINCIPAL, commercialSheet.sheetId, treatments);
    if (written.medicare !== null) throw new Error("a commercial visit answered a Medicare check");
  });
  const lookup = await sample("all Medicare rules alone (visitThresholdCheck)", async (i) => {
    const s = sheets[i % sheets.length];
    const check = await visitThresholdCheck(
      practice.storage.repositories,
      s.note,
      treatments.map((t, j) => ({ code: CODES[j], units: t.units, modifiers: j === 2 ? ["GO"] : ["GP"] })),
    );
    if (!check) throw new Error("no check for a Medicare visit");
  });
  // The threshold lookup proper: the ledger's aggregate up to the visit's date and the fees of its codes (the rest of
  // the Medicare rules read the coverage, the plan of care and the providers' credentials).
  const r = practice.storage.repositories;
  const day = new Date().toISOString().slice(0, 10);
  const thresholdLookup = await sample("the threshold lookup (ledger totals + fees)", async (i) => {
    const s = sheets[i % sheets.length];
    const totals = await r.therapyCharges.totals(1, s.patientId, YEAR, day);
    const fees = await r.feeSchedules.allowedCents(1, YEAR, CODES);
    if (totals.PT_SLP !== PRIOR_VISITS * 6300 || fees.size !== CODES.length) throw new Error("wrong totals or fees");
  });
  const added = medicareWrite.p95 - commercialWrite.p95;
  console.log(
    `added p95 (Medicare write - baseline) ${ms(added)}; ratio p95 ${(medicareWrite.p95 / commercialWrite.p95).toFixed(2)}; all Medicare rules p95 ${ms(lookup.p95)}; threshold lookup p95 ${ms(thresholdLookup.p95)}: goal < 2 ms ${thresholdLookup.p95 < 2 ? "met" : "NOT met"}; whole Medicare check < 2 ms: ${added < 2 && lookup.p95 < 2 ? "met" : "NOT met"}`,
  );
  console.log(`\nplan of the ledger's aggregate:\n${await planOf(databaseUrl, sheets[0].patientId)}`);
  await storage.close?.();
}

runBenchmark(main);
