// Patient registrations on two runtimes side by side, in alternating rounds: this checkout's runtime and
// another build of it (BENCH_OTHER_RUNTIME: the cli.js of another checkout) or this one with other settings
// (BENCH_OTHER_ENV: JSON of environment variables for the second runtime only), each on its own copy of one
// SQLite fixture. The machine's speed drifts within minutes, so a change to the create path is judged by the
// ratio of alternating short rounds, not by two runs minutes apart. See docs/performance.md ("Comparing two
// builds").
//
//   npm run build && node test/bench/proto/create-paired.mjs
//   BENCH_OTHER_RUNTIME=/tmp/old-rt/packages/runtime/dist/cli.js node test/bench/proto/create-paired.mjs
//
// Env: BENCH_PATIENTS (100000), BENCH_ROUNDS (6), BENCH_DURATION_SECONDS (5 per round and runtime),
// BENCH_CONNECTIONS (10), BENCH_BASELINE (1: also the bare baseline server in each round; 0: leave it out).
import { copyFileSync } from "node:fs";
import { join } from "node:path";
import { buildFixture } from "../fixture.mjs";
import {
  BASELINE_SERVER,
  RUNTIME_CLI,
  benchHeaders,
  busyShare,
  intEnv,
  load,
  machineLine,
  median,
  startRuntime,
  startServer,
  stopServer,
  temp,
} from "../harness.mjs";

const PATIENTS = intEnv("BENCH_PATIENTS", 100_000);
const ROUNDS = intEnv("BENCH_ROUNDS", 6);
const RUN = { duration: intEnv("BENCH_DURATION_SECONDS", 5), connections: intEnv("BENCH_CONNECTIONS", 10) };
const OTHER_CLI = process.env.BENCH_OTHER_RUNTIME || RUNTIME_CLI;
const OTHER_ENV = JSON.parse(process.env.BENCH_OTHER_ENV || "{}");
const WITH_BASELINE = process.env.BENCH_BASELINE !== "0";
if (OTHER_CLI === RUNTIME_CLI && Object.keys(OTHER_ENV).length === 0)
  console.warn("the second runtime is this one with the same settings: an A/A run (it shows the noise)");

const f2 = (x) => x.toFixed(2);
const sum = (xs) => xs.reduce((a, b) => a + b, 0);

console.log(machineLine());
console.log(`CPU busy before the run: ${(100 * (await busyShare())).toFixed(0)}%`);
const fixture = join(temp, "fixture.db");
await buildFixture(fixture, PATIENTS);
const copy = (name) => {
  copyFileSync(fixture, join(temp, `${name}.db`));
  return join(temp, `${name}.db`);
};
const servers = [
  await startRuntime("this", copy("this"), "warn"),
  await startRuntime("other", copy("other"), "warn", OTHER_CLI, OTHER_ENV),
];
if (WITH_BASELINE) servers.push(await startServer("baseline", [BASELINE_SERVER], { DB_FILE: copy("baseline") }));
const headers = await benchHeaders();

try {
  const rps = Object.fromEntries(servers.map((s) => [s.name, []]));
  for (const s of servers) await load(s, "create", headers, { ...RUN, duration: 2 });
  for (let round = 0; round < ROUNDS; round++) {
    for (const s of round % 2 === 0 ? servers : [...servers].reverse()) {
      const result = await load(s, "create", headers, RUN);
      if (result.bad > 0) throw new Error(`${s.name}: ${result.bad} answers were errors or not 2xx`);
      rps[s.name].push(result.rps);
    }
    console.log(`round ${round + 1}: ${servers.map((s) => `${s.name} ${rps[s.name][round].toFixed(1)}/s`).join(", ")}`);
  }
  const ratios = rps.this.map((x, i) => x / rps.other[i]);
  console.log(
    `\nthis ÷ other: ${f2(sum(rps.this) / sum(rps.other))} (rounds ${ratios.map(f2).join(" ")}, median ${f2(median(ratios))})`,
  );
  if (WITH_BASELINE)
    for (const name of ["this", "other"])
      console.log(
        `${name} ÷ baseline: ${f2(sum(rps[name]) / sum(rps.baseline))} (median round ${f2(median(rps[name].map((x, i) => x / rps.baseline[i])))})`,
      );
} finally {
  await Promise.all(servers.map(stopServer));
}
