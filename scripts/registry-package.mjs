// Installs one package from the npm registry into a cache folder of its own, for the tools the project brings
// itself rather than through package.json: a supported Node line (with-supported-node.mjs) and the PostgreSQL
// servers the tests run besides Debian's (postgres-binaries.mjs). npm resolves and checks the tarball against the
// registry's integrity as for any dependency; nothing else is downloaded.
//
// Plain JavaScript for old Node versions: no syntax or API newer than Node 14.
import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, renameSync, rmSync } from "node:fs";
import { join } from "node:path";

/** npm as the calling npm ran it (npm_execpath), else the npm on PATH. */
function npmCommand() {
  const execPath = (process.env.npm_execpath || "").replace(/npx-cli\.js$/, "npm-cli.js");
  return /npm-cli\.js$/.test(execPath) ? [process.execPath, [execPath]] : ["npm", []];
}

/**
 * Installs `spec` into `dir` (`dir/node_modules/<name>`), into a temporary folder first so that a crash leaves
 * nothing half-installed; `check` is a path relative to `dir` that must exist afterwards, and `prepare(temporary)`
 * runs before the folder takes its place. Throws when npm fails; another process installing the same folder at
 * the same time is not an error.
 */
export function installRegistryPackage({ spec, dir, check, prepare }) {
  const temporary = `${dir}.partial-${process.pid}`;
  mkdirSync(temporary, { recursive: true });
  // The calling npm's settings (a lifecycle script's npm_config_*) must not leak into this install.
  const env = {};
  for (const [key, value] of Object.entries(process.env)) if (!/^npm_/i.test(key)) env[key] = value;
  const [command, prefix] = npmCommand();
  const args = [
    ...prefix,
    "install",
    spec,
    "--prefix",
    temporary,
    "--no-save",
    "--no-package-lock",
    "--ignore-scripts",
    "--no-audit",
    "--no-fund",
    "--loglevel=error",
  ];
  const result = spawnSync(command, args, { cwd: temporary, env, stdio: ["ignore", "ignore", 2] }); // its "added 1 package" summary is noise
  if (result.status !== 0 || !existsSync(join(temporary, check))) {
    rmSync(temporary, { recursive: true, force: true });
    throw new Error(`could not install ${spec} from the npm registry (npm exit ${result.status ?? result.signal})`);
  }
  try {
    if (prepare) prepare(temporary);
    renameSync(temporary, dir);
  } catch (error) {
    rmSync(temporary, { recursive: true, force: true }); // another process finished first
    if (!existsSync(join(dir, check))) throw error;
  }
}
