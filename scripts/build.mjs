#!/usr/bin/env node
// Incremental build of the workspace packages: a package is rebuilt only when its build inputs
// changed since its dist/ was written (a content hash kept in dist/.build-stamp.json), so
// `npm start` with nothing changed costs a hash of the sources, not a minute of tsup.
//
//   node scripts/build.mjs                  JavaScript only: what the runtime, the CLI and the tests load
//   node scripts/build.mjs --declarations   also the .d.ts files (for publishing and embedding)
//   ... --only <dir>                        that one workspace package (each package's prepack: npm pack
//                                           builds the declarations it publishes, about 10 s a package)
//
// Progress goes to stderr, so a command's stdout (e.g. the seed's JSON line) stays clean.
import { spawnSync } from "node:child_process";
import { createHash } from "node:crypto";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));
const TSUP = join(root, "node_modules", "tsup", "dist", "cli-default.js");
const STAMP = ".build-stamp.json";
// Inputs every package's build reads besides its own folder.
const SHARED_INPUTS = ["tsup.base.ts", "tsconfig.base.json", "tsconfig.json"];

/** Every file below `dir` that can change a package's output (tests and build output excluded). */
function sourceFiles(dir) {
  const out = [];
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) out.push(...sourceFiles(path));
    else if (!entry.name.endsWith(".test.ts")) out.push(path);
  }
  return out;
}

/** A hash of the package's build inputs: its src/, package.json and tsup config, and the shared configs. */
export function inputsHash(packageDir) {
  const files = [
    ...sourceFiles(join(packageDir, "src")),
    ...["package.json", "tsup.config.ts"].map((name) => join(packageDir, name)).filter(existsSync),
    ...SHARED_INPUTS.map((name) => join(root, name)).filter(existsSync),
  ].sort();
  const hash = createHash("sha256");
  for (const file of files) hash.update(relative(root, file)).update("\0").update(readFileSync(file)).update("\0");
  return hash.digest("hex");
}

function readStamp(packageDir) {
  try {
    return JSON.parse(readFileSync(join(packageDir, "dist", STAMP), "utf8"));
  } catch {
    return null;
  }
}

/**
 * Builds the packages whose inputs changed; returns the names of those rebuilt. Checking costs
 * only a hash, on any Node; tsup runs on `node` (a supported one) for the packages that changed.
 */
export function buildChanged({ declarations = false, node = process.execPath, env = process.env, only } = {}) {
  const all = JSON.parse(readFileSync(join(root, "package.json"), "utf8")).workspaces;
  const workspaces = only === undefined ? all : all.filter((w) => join(root, w) === resolve(only));
  if (workspaces.length === 0) throw new Error(`${only} is not a workspace package of ${root}`);
  const rebuilt = [];
  for (const workspace of workspaces) {
    const packageDir = join(root, workspace);
    const inputs = inputsHash(packageDir);
    const stamp = readStamp(packageDir);
    if (stamp?.inputs === inputs && (stamp.declarations || !declarations)) continue;
    const args = [TSUP, "--silent", ...(declarations ? [] : ["--no-dts"])];
    const result = spawnSync(node, args, { cwd: packageDir, env, stdio: ["ignore", 2, 2] });
    if (result.status !== 0)
      throw new Error(`build of ${workspace} failed (tsup exit ${result.status ?? result.signal})`);
    writeFileSync(join(packageDir, "dist", STAMP), `${JSON.stringify({ inputs, declarations })}\n`);
    rebuilt.push(workspace);
  }
  return rebuilt;
}

/** buildChanged with one line on stderr saying what it did; false when a build failed. */
export function buildChangedAndSay(options) {
  const started = Date.now();
  try {
    const rebuilt = buildChanged(options);
    const seconds = ((Date.now() - started) / 1000).toFixed(1);
    if (rebuilt.length) process.stderr.write(`build: rebuilt ${rebuilt.join(", ")} in ${seconds} s\n`);
    return true;
  } catch (error) {
    process.stderr.write(`build: ${error.message}\n`);
    return false;
  }
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const args = process.argv.slice(2);
  const only = args.includes("--only") ? args[args.indexOf("--only") + 1] : undefined;
  if (!buildChangedAndSay({ declarations: args.includes("--declarations"), only })) process.exit(1);
}
