#!/usr/bin/env node
// Packs every workspace package as npm would publish it and uses the tarballs the way an outside project does:
// installed into a temporary project (no workspace links, dependencies from the registry), each entry point
// imported from ESM and required from CommonJS, a small embedding file type-checked against the packed types,
// and every tarball checked by publint and @arethetypeswrong/cli. Exits 1 on any problem. `npm run test:pack`;
// .ci/run runs it once. It builds the declarations first (about a minute), so it is not part of the vitest run,
// whose tests load the same dist/ files.
import { spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = (name) => join(root, "node_modules", ".bin", name);
const temp = mkdtempSync(join(os.tmpdir(), "openpractice-pack-"));
const problems = [];
const say = (line) => process.stdout.write(`${line}\n`);

function run(command, args, options = {}) {
  const r = spawnSync(command, args, { encoding: "utf8", maxBuffer: 64 * 2 ** 20, ...options });
  return { status: r.status, stdout: r.stdout ?? "", stderr: r.stderr ?? "" };
}
function must(what, r) {
  if (r.status !== 0)
    throw new Error(`${what} failed (${r.status}):\n${r.stdout.slice(-3000)}\n${r.stderr.slice(-3000)}`);
  return r;
}

try {
  const started = Date.now();
  must(
    "build with declarations",
    run(process.execPath, [join(root, "scripts/build.mjs"), "--declarations"], {
      cwd: root,
      stdio: ["ignore", "inherit", "inherit"],
    }),
  );
  const tarballs = join(temp, "tarballs");
  mkdirSync(tarballs);
  const packed = JSON.parse(
    must("npm pack", run("npm", ["pack", "--workspaces", "--pack-destination", tarballs, "--json"], { cwd: root }))
      .stdout,
  );
  say(`packed ${packed.length} packages in ${((Date.now() - started) / 1000).toFixed(0)} s`);

  // What each tarball carries.
  for (const p of packed) {
    const files = new Set(p.files.map((f) => f.path));
    for (const needed of ["package.json", "README.md", "LICENSE", "CHANGELOG.md", "dist/index.js", "dist/index.d.ts"])
      if (!files.has(needed)) problems.push(`${p.name}: the tarball has no ${needed}`);
    for (const f of files)
      if (/\.test\.ts$|(^|\/)test\//.test(f)) problems.push(`${p.name}: the tarball carries the test file ${f}`);
  }

  // publint on each package (as packed by npm) and attw on each tarball. CommonJS callers load these ES modules
  // with require() on the supported Node lines (22.12+ and 24), which the scratch project below proves; attw's
  // cjs-resolves-to-esm rule predates that and is the one rule not applied.
  let publintCount = 0;
  let attwCount = 0;
  for (const p of packed) {
    const dir = join(
      root,
      JSON.parse(readFileSync(join(root, "package.json"), "utf8")).workspaces.find(
        (w) => JSON.parse(readFileSync(join(root, w, "package.json"), "utf8")).name === p.name,
      ),
    );
    const lint = run(bin("publint"), ["run", dir, "--strict"], { cwd: root });
    const lintIssues = (lint.stdout + lint.stderr).split("\n").filter((l) => /^\s*\d+\.\s/.test(l));
    publintCount += lintIssues.length;
    if (lint.status !== 0 || lintIssues.length > 0) problems.push(`publint ${p.name}:\n${lint.stdout}${lint.stderr}`);
    const attw = run(
      bin("attw"),
      [join(tarballs, p.filename), "--format", "json", "--ignore-rules", "cjs-resolves-to-esm"],
      { cwd: root },
    );
    const report = JSON.parse(attw.stdout || "{}");
    const found = report.analysis?.problems ?? [];
    const kept = found.filter((x) => x.kind !== "CJSResolvesToESM");
    attwCount += kept.length;
    if (kept.length > 0)
      problems.push(
        `attw ${p.name}: ${kept.map((x) => `${x.kind} ${x.entrypoint ?? ""} ${x.resolutionKind ?? ""}`).join("; ")}`,
      );
  }
  say(`publint: ${publintCount} issues (--strict: warnings count); attw: ${attwCount} problems`);

  // A project outside the repository installs the tarballs.
  const project = join(temp, "project");
  mkdirSync(project);
  writeFileSync(
    join(project, "package.json"),
    `${JSON.stringify({ name: "scratch", private: true, type: "module" }, null, 2)}\n`,
  );
  const install = run(
    "npm",
    [
      "install",
      "--no-audit",
      "--no-fund",
      "--prefer-offline",
      ...packed.map((p) => join(tarballs, p.filename)),
      "typescript@~5.9.3",
      "@types/node@^22",
      "@types/express@^5",
      "express@^5",
    ],
    { cwd: project },
  );
  must("npm install of the tarballs", install);
  say(`installed the tarballs into ${project}`);

  for (const p of packed) {
    const esm = run(
      process.execPath,
      [
        "--input-type=module",
        "-e",
        `const m = await import(${JSON.stringify(p.name)}); if (Object.keys(m).length === 0) throw new Error("no exports");`,
      ],
      { cwd: project },
    );
    if (esm.status !== 0) problems.push(`import ${p.name}: ${esm.stderr.split("\n").slice(0, 4).join(" ")}`);
    const cjs = run(
      process.execPath,
      [
        "-e",
        `const m = require(${JSON.stringify(p.name)}); if (Object.keys(m).length === 0) throw new Error("no exports");`,
      ],
      { cwd: project },
    );
    if (cjs.status !== 0) problems.push(`require ${p.name}: ${cjs.stderr.split("\n").slice(0, 4).join(" ")}`);
  }
  say(`imported ${packed.length} entry points from ESM and CommonJS`);

  // An embedding file, type-checked against the packed declarations only.
  writeFileSync(
    join(project, "embed.ts"),
    `import express from "express";
import { createPractice, type Practice } from "@openpractice/core";
import { createHttpHandler, createJwtAuthenticator, createTokenIssuer, generateSigningKey } from "@openpractice/http";
import { openPracticeMiddleware } from "@openpractice/express";
import { createSqliteStorage } from "@openpractice/sqlite";
import { startBackgroundWork } from "@openpractice/worker";
import { createOpenPracticeClient, verifyWebhook } from "@openpractice/client";

const storage = await createSqliteStorage({ filename: ":memory:" });
const practice: Practice = createPractice({ storage, keys: { webhookSecretKey: "0".repeat(64), vapid: null } });
const handler = createHttpHandler({
  practice,
  authenticator: createJwtAuthenticator({ secret: "x".repeat(32) }),
  tokenIssuer: createTokenIssuer({ keys: [await generateSigningKey()] }),
});
const app = express();
app.use("/emr", openPracticeMiddleware(handler));
const work = startBackgroundWork(practice, {});
const count: number = (await practice.patients.list(
  { organisationId: 1, userId: null, name: null, scopes: ["read"], clinicIds: [], roles: [] },
  {},
)).patients.length;
await work.stop();
await storage.close();

// The typed client, against the packed declarations: v1 data and v2 errors typed from the document.
const op = createOpenPracticeClient({ baseUrl: "http://127.0.0.1:8080/emr", token: "token" });
const patientId = async (): Promise<number | null> => {
  const read = await op.v1.GET("/apis/v1/patient/{id}", { params: { path: { id: "1" } } });
  return read.ok ? read.data.patient_id : null;
};
const errorCode = async (): Promise<string | null> => {
  const read = await op.v2.GET("/v2/patients/{id}", { params: { path: { id: "1" } } });
  return read.ok ? null : (read.error?.error.code ?? null);
};
const signed = (body: string, headers: Headers) => verifyWebhook({ body, headers, signatureKey: "0".repeat(128) });
export { app, count, errorCode, patientId, signed };
`,
  );
  writeFileSync(
    join(project, "tsconfig.json"),
    `${JSON.stringify({ compilerOptions: { target: "es2023", module: "nodenext", moduleResolution: "nodenext", strict: true, noEmit: true, skipLibCheck: false, types: ["node"] }, files: ["embed.ts"] }, null, 2)}\n`,
  );
  const tsc = run(process.execPath, [join(project, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], {
    cwd: project,
  });
  if (tsc.status !== 0) problems.push(`tsc of the embedding file:\n${tsc.stdout}${tsc.stderr}`);
  else say("type-checked the embedding file against the packed types (strict, skipLibCheck false)");
} catch (error) {
  problems.push(error.message);
} finally {
  rmSync(temp, { recursive: true, force: true });
}
if (problems.length > 0) {
  for (const p of problems) process.stderr.write(`pack check: ${p}\n`);
  process.exit(1);
}
say("pack check: ok");
