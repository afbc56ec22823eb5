import { execFile, spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { seedDemo } from "@openpractice/runtime";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FakePushService } from "../support/push-service.js";
import { startTestRuntime, TEST_SECRET, type TestRuntime } from "../support/runtime-fixture.js";
import { makeTempDir } from "../support/temp-dir.js";
import { compareShape, type CurlExample, documentedReplies, examplesOf, preamble } from "./doc-examples.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));
const CLI = join(ROOT, "packages/runtime/bin/openpractice.mjs");

/** Every page with curl examples; each runs in one bash session, in this order, against one freshly seeded runtime. */
const PAGES = [
  "README.md",
  "docs/getting-started.md",
  "docs/patients-api.md",
  "docs/appointments-api.md",
  "docs/cases-api.md",
  "docs/clinics.md",
  "docs/providers.md",
  "docs/staff.md",
  "docs/appointment-types.md",
  "docs/payers.md",
  "docs/webhooks.md",
  "docs/notifications.md",
  "docs/soap-notes.md",
  "docs/setup.md",
  "docs/authentication.md",
  "docs/audit-trail.md",
  "docs/scheduling.md",
  "docs/insurance.md",
  "docs/documents.md",
  "docs/tasks.md",
  "docs/sso.md",
  "docs/medicare-therapy.md",
  "docs/fhir.md",
];

function runBash(
  script: string,
  env: Record<string, string>,
  cwd: string,
): Promise<{ status: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      "bash",
      ["-c", script],
      { env, cwd, timeout: 90_000, maxBuffer: 16 * 1024 * 1024 },
      (error, stdout, stderr) => {
        const status = error ? (typeof error.code === "number" ? error.code : 1) : 0;
        resolve({ status, stdout: String(stdout), stderr: String(stderr) });
      },
    );
  });
}

describe("the documented examples run against a freshly seeded runtime", () => {
  let temp: ReturnType<typeof makeTempDir>;
  beforeAll(() => {
    for (const tool of ["curl", "jq"]) {
      const found = spawnSync(tool, ["--version"]);
      if (found.error)
        throw new Error(`${tool} is needed to run the documented examples (apt-get install ${tool}; .ci does)`);
    }
    temp = makeTempDir();
  });
  afterAll(() => temp.remove());

  for (const page of PAGES) {
    it(`${page}: every curl answers as documented (status, and the shape of the documented reply)`, async () => {
      const markdown = readFileSync(join(ROOT, page), "utf8");
      const { script, curls } = examplesOf(markdown);
      expect(curls.length, "the page has curl examples").toBeGreaterThan(0);
      // Each page on its own fresh database, seeded as `npm run seed` does (Getting started) before the page begins.
      const rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' });
      // A browser's push subscription ($ENDPOINT, $P256DH, $AUTH in notifications.md) on a local push service.
      const push = await new FakePushService().start();
      try {
        const seed = await seedDemo(rt.runtime.practice, { organisationId: 1, patients: 50, jwtSecret: TEST_SECRET });
        const browser = push.subscribe();
        const extra = { ENDPOINT: browser.endpoint, P256DH: browser.keys.p256dh, AUTH: browser.keys.auth };
        await checkPage(page, markdown, script, curls, rt, seed.token as string, extra);
      } finally {
        await push.stop();
        await rt.stop();
      }
      // Several CLI runs (seed, tokens) and a background job (the SOAP summary) per page.
    }, 120_000);
  }

  async function checkPage(
    page: string,
    markdown: string,
    script: string,
    curls: CurlExample[],
    rt: TestRuntime,
    token: string,
    extra: Record<string, string>,
  ) {
    const log = join(temp.dir, page.replace(/\W/g, "_"));
    // The documented address stands for the test runtime's; the CLI lines run the real CLI on the test database.
    const env = {
      PATH: process.env.PATH ?? "",
      HOME: temp.dir,
      B: rt.url,
      TOKEN: token,
      DATABASE_URL: rt.databaseUrl,
      OPENPRACTICE_DATA_DIR: rt.dataDir,
      OPENPRACTICE_JWT_SECRET: TEST_SECRET,
      OPENPRACTICE_PUBLIC_URL: rt.url,
      LOG_LEVEL: "silent",
      OPENPRACTICE_CLI: CLI,
      DOC_LOG: log,
      ...extra,
    };
    const run = await runBash(`${preamble()}\n${script.replaceAll("http://127.0.0.1:8080", rt.url)}`, env, temp.dir);
    const calls = readCalls(log);
    const report = `${page}\nstdout: ${run.stdout.slice(-1500)}\nstderr: ${run.stderr.slice(-2000)}\nstatuses: ${calls.map((c) => c.status).join(" ")}`;
    expect(run.status, report).toBe(0);
    // Every difference of the page at once, so one run shows all that drifted.
    const failures: string[] = [];
    for (const c of curls) {
      const made = calls.filter((call) => call.example === c.index);
      if (made.length === 0) failures.push(`${c.text}\n→ never ran`);
      for (const call of made) {
        const ok = c.expected === undefined ? call.status >= 200 && call.status < 300 : call.status === c.expected;
        if (!ok)
          failures.push(`${c.text}\n→ ${call.status} (${c.expected ?? "2xx"} documented): ${call.body.slice(0, 400)}`);
      }
    }
    // Each documented reply (a json or http block right after a block of curls) has the shape of that block's last reply.
    for (const doc of documentedReplies(markdown)) {
      const real = calls.filter((call) => call.example === doc.example).at(-1)?.body ?? "";
      const problems = compareShape(doc.reply, parseBody(real));
      if (problems.length > 0)
        failures.push(`reply documented at line ${doc.line}: ${problems.join("; ")}\nreal: ${real.slice(0, 1200)}`);
    }
    expect(failures, report).toEqual([]);
  }
});

interface Call {
  example: number;
  status: number;
  body: string;
}

/** The curl wrapper's log: per call, the command that made it, the status, and the file holding the body. */
function readCalls(log: string): Call[] {
  let lines: string[];
  try {
    lines = readFileSync(`${log}.log`, "utf8").trim().split("\n").filter(Boolean);
  } catch {
    return [];
  }
  return lines.map((line) => {
    const [example, status, bodyFile] = line.split(" ");
    let body = "";
    try {
      body = readFileSync(bodyFile as string, "utf8");
    } catch {}
    return { example: Number(example), status: Number(status), body };
  });
}

function parseBody(text: string): unknown {
  // With -i, curl writes the headers before the body.
  const body = /^HTTP\//.test(text)
    ? text
        .split(/\r?\n\r?\n/)
        .slice(1)
        .join("\n\n")
    : text;
  try {
    return JSON.parse(body);
  } catch {
    return body;
  }
}
