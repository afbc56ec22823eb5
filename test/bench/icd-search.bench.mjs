// ICD-10-CM search over the whole code set (97,606 rows from ../shared/data), in
// process: the service call the search endpoint makes, on a SQLite file (or the
// engine of DATABASE_URL). Prints p50/p95/p99 per query kind. See docs/performance.md.
//
//   npm run build && node test/bench/icd-search.bench.mjs
//
// Env: BENCH_ICD_RUNS (300 searches per query), DATABASE_URL.
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { createPractice } from "@openpractice/core";
import { openStorage } from "@openpractice/runtime";
import { busyShare, intEnv, machineLine, temp } from "./harness.mjs";

const FILE = fileURLToPath(new URL("../../../shared/data/icd10cm/icd10cm_order_2025_derived.txt", import.meta.url));
if (!existsSync(FILE)) {
  console.log(`skipped: ${FILE} is absent (the shared ICD-10-CM data sits beside the repository)`);
  process.exit(0);
}
const RUNS = intEnv("BENCH_ICD_RUNS", 300);
const QUERIES = [
  "low back pain",
  "lumbar radiculopathy",
  "M54.5",
  "S83.5",
  "fracture of femur",
  "pain",
  "diabetes type 2 without complications",
  "knee",
];
const pct = (xs, p) => [...xs].sort((a, b) => a - b)[Math.min(xs.length - 1, Math.ceil((p / 100) * xs.length) - 1)];
const f2 = (n) => n.toFixed(2);

const url = process.env.DATABASE_URL || `sqlite:${join(temp, "icd.db")}`;
console.log(`${machineLine()}; ${url.split(":")[0]}; CPU busy before the run: ${(await busyShare()).toFixed(1)}%`);
const storage = await openStorage(url);
try {
  const practice = createPractice({ storage });
  const t0 = performance.now();
  const summary = await practice.icd.importOrderFile(readFileSync(FILE, "latin1").split("\n"), 2025);
  console.log(
    `import: ${summary.codes} codes (${summary.billable} billable) in ${f2((performance.now() - t0) / 1000)} s`,
  );
  const all = [];
  console.log("| query | matches | p50 ms | p95 ms | p99 ms |\n| --- | ---: | ---: | ---: | ---: |");
  for (const q of QUERIES) {
    const { total } = await practice.icd.search({ q });
    for (let i = 0; i < 20; i++) await practice.icd.search({ q });
    const times = [];
    for (let i = 0; i < RUNS; i++) {
      const t = performance.now();
      await practice.icd.search({ q });
      times.push(performance.now() - t);
    }
    all.push(...times);
    console.log(`| ${q} | ${total} | ${f2(pct(times, 50))} | ${f2(pct(times, 95))} | ${f2(pct(times, 99))} |`);
  }
  console.log(`| all | | ${f2(pct(all, 50))} | ${f2(pct(all, 95))} | ${f2(pct(all, 99))} |`);
  console.log(`target p95 < 10 ms per search: ${f2(pct(all, 95))} ms -> ${pct(all, 95) < 10 ? "holds" : "MISSED"}`);
} finally {
  await storage.close();
}
