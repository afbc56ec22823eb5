// FHIR R4 Patient search (docs/fhir.md, issue 51): what a FHIR search costs against the v2 list doing the same
// search, on one database of BENCH_PATIENTS (100,000) patients, in process. Both run through core's services and
// the SQL adapter; the FHIR side also draws each match as a US Core Patient (the JSON a reply carries).
// Scenarios, 20 matches a page: a family-name prefix (FHIR `family=kowal`) against v2's `search=kowal`; a page deep
// in the organisation's patients by id (`_count=20&_offset=5000`) against v2's page 251 sorted by creation; a
// birth-date range with a gender. Prints p50/p95/p99 of each and the ratio of p95s. See docs/performance.md.
//
//   npm run bench:fhir-search                 SQLite (a temp file)
//
// Exits 1 when a search finds nothing (the figures would then be meaningless).
import { join } from "node:path";
import { createPractice, fhirPatient } from "@openpractice/core";
import { createSqliteStorage } from "@openpractice/sqlite";
import { testPracticeKeys } from "@openpractice/testing";
import { buildFixture } from "./fixture.mjs";
import { intEnv, machineLine, runBenchmark, sampleLatency, stats, temp } from "./harness.mjs";

const PATIENTS = intEnv("BENCH_PATIENTS", 100_000);
const SAMPLES = intEnv("BENCH_SAMPLES", 500);
const PRINCIPAL = { organisationId: 1, userId: 101, name: "Bench", scopes: ["read"], clinicIds: [], roles: [] };
const ms = (n) => `${n.toFixed(2)} ms`;
const page = { sort: { field: "id", order: "asc" }, limit: 20, offset: 0 };

const sample = (label, fn) => sampleLatency(label, fn, { samples: SAMPLES, warmup: 30, width: 58 });

const found = (n, what) => {
  if (n === 0) throw new Error(`${what} found nothing`);
};

async function main() {
  console.log(machineLine());
  const filename = join(temp, "fhir-search.db");
  const started = performance.now();
  await buildFixture(filename, PATIENTS);
  console.log(`built ${PATIENTS} patients in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const storage = await createSqliteStorage({ filename });
  const practice = createPractice({ storage, keys: testPracticeKeys() });
  const rows = [];
  const pairs = [
    [
      "FHIR Patient?family=kowal (20, drawn as US Core)",
      async () => {
        const r = await practice.fhirSearch.searchPatients(PRINCIPAL, {
          ...page,
          family: [{ mode: "prefix", values: ["kowal"] }],
        });
        found(r.patients.length, "family=kowal");
        r.patients.map(fhirPatient);
      },
      "baseline: v2 /v2/patients?search=kowal (20)",
      async () =>
        found((await practice.patients.list(PRINCIPAL, { search: "kowal", perPage: 20 })).patients.length, "search"),
    ],
    [
      "FHIR Patient?_count=20&_offset=5000",
      async () => {
        const r = await practice.fhirSearch.searchPatients(PRINCIPAL, { ...page, offset: 5000 });
        found(r.patients.length, "offset 5000");
        r.patients.map(fhirPatient);
      },
      "baseline: v2 /v2/patients?page=251&per_page=20",
      async () =>
        found(
          (await practice.patients.list(PRINCIPAL, { page: 251, perPage: 20, sort: "created_at", order: "asc" }))
            .patients.length,
          "page 251",
        ),
    ],
    [
      "FHIR Patient?birthdate=ge1980&birthdate=lt1990&gender=female",
      async () => {
        const r = await practice.fhirSearch.searchPatients(PRINCIPAL, {
          ...page,
          birthDate: [{ from: "1980-01-01", before: "1990-01-01" }],
          sex: [["FEMALE"]],
        });
        found(r.patients.length, "birthdate");
        r.patients.map(fhirPatient);
      },
      undefined,
      undefined,
    ],
  ];
  for (const [label, fn, baseLabel, baseFn] of pairs) {
    const ours = await sample(label, fn);
    if (baseFn) {
      const base = await sample(baseLabel, baseFn);
      rows.push(`${label}: p95 ratio to the v2 list ${(ours.p95 / base.p95).toFixed(2)}`);
    }
  }
  for (const row of rows) console.log(row);
  await storage.close?.();
}

runBenchmark(main);
