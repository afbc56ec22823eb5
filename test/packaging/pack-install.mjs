#!/usr/bin/env node
// Packs every workspace package the way docs/embedding.md says (after `npm ci`: `npm pack --workspaces`, whose
// prepack builds each package with its declarations) and uses the tarballs the way an outside project does:
// - each tarball's files (its declarations among them) and publint and @arethetypeswrong/cli on each;
// - every `npm install` line of the docs and READMEs that names @openpractice packages, run in a new project with
//   those names mapped to the tarballs (a package the line forgets fails here as it fails a reader);
// - all the tarballs installed together, each entry point imported from ESM and required from CommonJS, a small
//   embedding file type-checked against the packed types;
// - the Express EMR of docs/embedding.md installed from its lines, type-checked, run and driven (scratch-emr.mjs).
// Exits 1 on any problem. `npm run test:pack` (Node 24: it imports test/docs/doc-examples.ts, type stripping);
// .ci/run runs it once. It takes minutes (the declarations alone about 3), so it is not part of the vitest run.
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { openPracticeInstalls } from "../docs/doc-examples.ts";
import { must, run, say } from "./commands.mjs";
import { checkScratchEmr } from "./scratch-emr.mjs";

const root = fileURLToPath(new URL("../..", import.meta.url));
const bin = (name) => join(root, "node_modules", ".bin", name);
const temp = mkdtempSync(join(os.tmpdir(), "openpractice-pack-"));
const problems = [];
const workspaces = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).workspaces;
const manifestOf = (workspace) => JSON.parse(readFileSync(join(root, workspace, "package.json"), "utf8"));
const seconds = (since) => `${((Date.now() - since) / 1000).toFixed(0)} s`;

/** Every `types` file a package.json points at (the top-level field and each exports condition). */
function typesFiles(manifest) {
  const found = new Set(manifest.types ? [manifest.types] : []);
  const walk = (node) => {
    if (node === null || typeof node !== "object") return;
    for (const [key, value] of Object.entries(node))
      if (key === "types" && typeof value === "string") found.add(value);
      else walk(value);
  };
  walk(manifest.exports);
  return [...found].map((f) => f.replace(/^\.\//, ""));
}

/** The pages whose install lines are run: README, docs/ and the packages' own READMEs. */
function pagesWithInstalls() {
  const pages = ["README.md", ...readdirSync(join(root, "docs")).map((f) => `docs/${f}`)];
  pages.push(...workspaces.map((w) => `${w}/README.md`));
  return pages.filter((p) => p.endsWith(".md"));
}

try {
  let started = Date.now();
  // The packages as `npm ci` leaves them: JavaScript only, no declarations (they were what hid a pack without them).
  for (const workspace of workspaces) rmSync(join(root, workspace, "dist"), { recursive: true, force: true });
  must("the build npm ci runs", run(process.execPath, [join(root, "scripts/build.mjs")], { cwd: root }));
  say(`reset dist/ to what npm ci builds (JavaScript only) in ${seconds(started)}`);

  // Packed as docs/embedding.md says; --json only to read the result.
  started = Date.now();
  const tarballs = join(temp, "tarballs");
  mkdirSync(tarballs);
  const packed = JSON.parse(
    must("npm pack", run("npm", ["pack", "--workspaces", "--pack-destination", tarballs, "--json"], { cwd: root }))
      .stdout,
  );
  say(`packed ${packed.length} packages in ${seconds(started)} (each prepack builds its declarations)`);
  const tarballOf = new Map(packed.map((p) => [p.name, join(tarballs, p.filename)]));
  const withTarballs = (args) =>
    args.map((word) => {
      if (!word.startsWith("@openpractice/")) return word;
      const name = word.replace(/(.)@.*$/, "$1");
      const tarball = tarballOf.get(name);
      if (!tarball) throw new Error(`an install line names ${word}, which is not a package of this repository`);
      return tarball;
    });

  // What each tarball carries.
  for (const p of packed) {
    const files = new Set(p.files.map((f) => f.path));
    const manifest = manifestOf(workspaces.find((w) => manifestOf(w).name === p.name));
    for (const needed of [
      "package.json",
      "README.md",
      "LICENSE",
      "CHANGELOG.md",
      "dist/index.js",
      ...typesFiles(manifest),
    ])
      if (!files.has(needed)) problems.push(`${p.name}: the tarball has no ${needed}`);
    for (const f of files)
      if (/\.test\.ts$|(^|\/)test\/|\.build-stamp\.json$/.test(f)) problems.push(`${p.name}: the tarball carries ${f}`);
  }

  // publint on each package (as packed by npm) and attw on each tarball. CommonJS callers load the server packages,
  // ES modules only, with require() on the supported Node lines (22.12+ and 24), which the projects below prove;
  // attw's cjs-resolves-to-esm rule predates that and is not applied to them. A dual package (one with a require
  // condition: the client) is held to every rule.
  started = Date.now();
  let publintCount = 0;
  let attwCount = 0;
  for (const p of packed) {
    const workspace = workspaces.find((w) => manifestOf(w).name === p.name);
    const lint = run(bin("publint"), ["run", join(root, workspace), "--strict"], { cwd: root });
    const lintIssues = (lint.stdout + lint.stderr).split("\n").filter((l) => /^\s*\d+\.\s/.test(l));
    publintCount += lintIssues.length;
    if (lint.status !== 0 || lintIssues.length > 0) problems.push(`publint ${p.name}:\n${lint.stdout}${lint.stderr}`);
    const dual = JSON.stringify(manifestOf(workspace).exports ?? {}).includes('"require"');
    const ignored = dual ? [] : ["--ignore-rules", "cjs-resolves-to-esm"];
    const attw = run(bin("attw"), [join(tarballs, p.filename), "--format", "json", ...ignored], { cwd: root });
    const report = JSON.parse(attw.stdout || "{}");
    const found = report.analysis?.problems ?? [];
    const kept = found.filter((x) => dual || x.kind !== "CJSResolvesToESM");
    attwCount += kept.length;
    if (kept.length > 0)
      problems.push(
        `attw ${p.name}: ${kept.map((x) => `${x.kind} ${x.entrypoint ?? ""} ${x.resolutionKind ?? ""}`).join("; ")}`,
      );
  }
  say(`publint: ${publintCount} issues (--strict: warnings count); attw: ${attwCount} problems (${seconds(started)})`);

  // The install lines of the pages, each block's in order in a new project (as a reader runs them), the
  // @openpractice names mapped to the tarballs. Install scripts are skipped: the lines are what is checked (a missing
  // package is a 404 from the registry, a version outside a peer range ERESOLVE); the scratch EMR below installs its
  // lines with them.
  started = Date.now();
  const blocks = new Map();
  for (const page of pagesWithInstalls())
    for (const { line, args } of openPracticeInstalls(readFileSync(join(root, page), "utf8"))) {
      const block = blocks.get(`${page}:${line}`) ?? [];
      blocks.set(`${page}:${line}`, [...block, args]);
    }
  let blockNumber = 0;
  for (const [where, lines] of blocks) {
    const dir = join(temp, `install-block-${++blockNumber}`);
    mkdirSync(dir);
    writeFileSync(
      join(dir, "package.json"),
      `${JSON.stringify({ name: "install-line", private: true, type: "module" })}\n`,
    );
    for (const args of lines) {
      const installed = run(
        "npm",
        ["install", "--no-audit", "--no-fund", "--prefer-offline", "--ignore-scripts", ...withTarballs(args)],
        { cwd: dir, timeout: 180_000 },
      );
      if (installed.status !== 0) {
        problems.push(
          `npm install ${args.join(" ")} (${where}) fails against the tarballs:\n${installed.stderr.slice(-2000)}`,
        );
        break;
      }
    }
  }
  if (blocks.size === 0) problems.push("no npm install line of an @openpractice package was found in the docs");
  const lineCount = [...blocks.values()].flat().length;
  say(
    `ran the ${lineCount} install lines of ${blocks.size} blocks of the docs against the tarballs (${seconds(started)}): ${[...blocks.keys()].join(", ")}`,
  );

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

  // An embedding file, type-checked against the packed declarations only (the client: scratch-emr/client.ts).
  writeFileSync(
    join(project, "embed.ts"),
    `import express from "express";
import { createPractice, type Practice } from "@openpractice/core";
import { createHttpHandler, createJwtAuthenticator, createTokenIssuer, generateSigningKey } from "@openpractice/http";
import { openPracticeMiddleware } from "@openpractice/express";
import { createSqliteStorage } from "@openpractice/sqlite";
import { startBackgroundWork } from "@openpractice/worker";

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

export { app, count };
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

  // The Express EMR of docs/embedding.md, from its install lines to its shutdown.
  started = Date.now();
  problems.push(...(await checkScratchEmr({ root, temp, withTarballs })));
  say(`scratch EMR checked in ${seconds(started)}`);
} catch (error) {
  problems.push(error.stack ?? error.message);
} finally {
  rmSync(temp, { recursive: true, force: true });
}
if (problems.length > 0) {
  for (const p of problems) process.stderr.write(`pack check: ${p}\n`);
  process.exit(1);
}
say("pack check: ok");
