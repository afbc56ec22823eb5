// How long an API write waits while `openpractice import icd10cm` loads the whole code set (97,606 codes) into the
// same SQLite database: POST /v2/patients one at a time against the running server, first with nothing else going
// on (the baseline, same process tree), then during the import. The import commits in batches of 500 codes, so a
// write waits for at most one batch. Prints p50 / p99 / max per phase and the import's duration. See
// docs/performance.md.
//
//   npm run bench:import-interleave
//
// Env: BENCH_BASELINE_WRITES (200). Reads ../shared/data/icd10cm/icd10cm_order_2025_derived.txt (skips without it).
import { spawn, spawnSync } from "node:child_process";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { signAccessToken } from "@openpractice/runtime";
import {
  RUNTIME_CLI,
  SECRET,
  PLAN_LIMITS,
  busyShare,
  intEnv,
  machineLine,
  startRuntime,
  stats,
  stopServer,
  temp,
} from "./harness.mjs";

const FILE = fileURLToPath(new URL("../../../shared/data/icd10cm/icd10cm_order_2025_derived.txt", import.meta.url));
const BASELINE_WRITES = intEnv("BENCH_BASELINE_WRITES", 200);
const f1 = (n) => n.toFixed(1);

async function main() {
  if (!existsSync(FILE)) {
    console.log(`skipped: ${FILE} is absent (the shared ICD-10-CM data sits beside the repository)`);
    return;
  }
  console.log(machineLine());
  console.log(`CPU busy before the run: ${(100 * (await busyShare())).toFixed(0)}%`);
  const database = join(temp, "interleave.db");
  const env = {
    ...process.env,
    DATABASE_URL: `sqlite:${database}`,
    OPENPRACTICE_DATA_DIR: temp,
    OPENPRACTICE_JWT_SECRET: SECRET,
    OPENPRACTICE_PLAN_LIMITS: PLAN_LIMITS,
  };
  // Organisation 1 on the plan the harness gives a budget no benchmark reaches.
  const created = spawnSync(
    process.execPath,
    [RUNTIME_CLI, "org", "create", "--name", "Bench", "--plan", "enterprise"],
    { env },
  );
  if (created.status !== 0) throw new Error(`org create failed: ${created.stderr}`);
  const server = await startRuntime("interleave", database, "warn");
  const token = await signAccessToken(SECRET, { organisationId: 1, userId: 1, scope: "read write" });
  let n = 0;
  const write = async () => {
    const started = performance.now();
    const res = await fetch(`${server.url}/v2/patients`, {
      method: "POST",
      headers: { authorization: `Bearer ${token}`, "content-type": "application/json" },
      body: JSON.stringify({ first_name: "During", last_name: `Import ${n++}`, date_of_birth: "1980-01-01" }),
    });
    await res.arrayBuffer();
    if (res.status !== 201) throw new Error(`write answered ${res.status}`);
    return performance.now() - started;
  };
  try {
    for (let i = 0; i < 20; i++) await write(); // warm-up
    const baseline = [];
    for (let i = 0; i < BASELINE_WRITES; i++) baseline.push(await write());

    const importStarted = performance.now();
    const child = spawn(process.execPath, [RUNTIME_CLI, "import", "icd10cm", FILE, "--year", "2025"], {
      env,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    const exited = new Promise((resolve) => child.on("exit", resolve));
    let running = true;
    exited.then(() => (running = false));
    const during = [];
    const when = [];
    while (running) {
      when.push((performance.now() - importStarted) / 1000);
      during.push(await write());
    }
    const code = await exited;
    const importSeconds = (performance.now() - importStarted) / 1000;
    if (code !== 0) throw new Error(`the import exited ${code}`);
    const summary = JSON.parse(out.trim().split("\n").at(-1));
    const b = stats(baseline);
    const d = stats(during);
    console.log(`import: ${summary.codes} codes in ${f1(importSeconds)} s; ${during.length} writes during it`);
    console.log("\n| writes | count | p50 ms | p99 ms | max ms |");
    console.log("| --- | ---: | ---: | ---: | ---: |");
    console.log(
      `| baseline (no import) | ${baseline.length} | ${f1(b.p50)} | ${f1(b.p99)} | ${f1(Math.max(...baseline))} |`,
    );
    console.log(`| during the import | ${during.length} | ${f1(d.p50)} | ${f1(d.p99)} | ${f1(Math.max(...during))} |`);
    const worst = Math.max(...during);
    const slowest = during
      .map((ms, i) => ({ ms, at: when[i] }))
      .sort((x, y) => y.ms - x.ms)
      .slice(0, 5);
    console.log(
      `slowest writes (ms at s into the import): ${slowest.map((x) => `${f1(x.ms)} at ${f1(x.at)}`).join(", ")}`,
    );
    console.log(
      `\ntarget: an API write waits under 200 ms during the import: max ${f1(worst)} ms -> ${worst < 200 ? "holds" : "MISSED"}`,
    );
  } finally {
    await stopServer(server);
  }
}

main().catch((error) => {
  console.error(error);
  process.exitCode = 1;
});
