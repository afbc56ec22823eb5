#!/usr/bin/env node
// Runs a command on a supported Node.js line, so the checkout's npm scripts work on a machine
// whose own Node is older (see docs/node-support.md).
//
//   node scripts/with-supported-node.mjs [--build] <command> [args...]
//
// On a supported Node the command runs as it is. On an older one, the launcher installs the npm
// registry's Node binary package for the line in .nvmrc (node-<platform>-<arch>@24, which ships
// the binary and its C headers) into .node/<line>/ once, says so in one line, and runs the command
// with that Node first on PATH. OPENPRACTICE_NODE_LINE=22 picks another line the same way (CI tests
// both). --build runs the incremental build (scripts/build.mjs) first, on the same Node.
//
// Plain JavaScript for old Node versions: no syntax or API newer than Node 14.
import { spawn } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { delimiter, join, relative } from "node:path";
import { fileURLToPath } from "node:url";
import { isSupportedNode, SUPPORTED_NODE_RANGE } from "../packages/runtime/bin/node-support.mjs";
import { buildChangedAndSay } from "./build.mjs";
import { installRegistryPackage } from "./registry-package.mjs";

const root = fileURLToPath(new URL("..", import.meta.url));
// OPENPRACTICE_NODE_CACHE moves the cache (the launcher's tests use a folder of their own).
const CACHE = process.env.OPENPRACTICE_NODE_CACHE || join(root, ".node");
const SWITCHED = "OPENPRACTICE_NODE_SWITCHED";

const say = (line) => process.stderr.write(`openpractice: ${line}\n`);

/** The line to bring when one is needed: OPENPRACTICE_NODE_LINE, else .nvmrc. */
function wantedLine() {
  return (process.env.OPENPRACTICE_NODE_LINE || readFileSync(join(root, ".nvmrc"), "utf8")).trim();
}

/** The registry's binary package for this machine, and where its `node` sits inside it. */
function binaryPackage(line) {
  const platform = process.platform === "win32" ? "win" : process.platform;
  const name = `node-${platform}-${process.arch}`;
  const dir = join(CACHE, line);
  const packageDir = join(dir, "node_modules", name);
  const bin = process.platform === "win32" ? packageDir : join(packageDir, "bin");
  return {
    name,
    spec: `${name}@${line}`,
    dir,
    packageDir,
    bin,
    node: join(bin, process.platform === "win32" ? "node.exe" : "node"),
  };
}

/** Installs the binary package into .node/<line>/. */
function install(target) {
  try {
    installRegistryPackage({ spec: target.spec, dir: target.dir, check: relative(target.dir, target.node) });
  } catch (error) {
    throw new Error(`${error.message}; install Node.js ${SUPPORTED_NODE_RANGE} yourself (see README, Troubleshooting)`);
  }
}

/** The Node to run on: this one when it will do, else the cached (or newly installed) registry package. */
export function chooseNode() {
  const running = process.versions.node;
  const forced = process.env.OPENPRACTICE_NODE_LINE;
  const fits = forced ? running.split(".")[0] === forced : isSupportedNode(running);
  if (fits) return { node: process.execPath, env: process.env };
  if (process.env[SWITCHED]) throw new Error(`switched Node once already and still runs ${running}`);
  const line = wantedLine();
  if (!isSupportedNode(`${line}.99.0`))
    throw new Error(`Node line '${line}' is not one of the supported lines (${SUPPORTED_NODE_RANGE})`);
  const target = binaryPackage(line);
  const why = forced
    ? `OPENPRACTICE_NODE_LINE=${forced}`
    : `Node.js ${running} is outside the supported range ${SUPPORTED_NODE_RANGE}`;
  const where = target.dir.startsWith(root) ? relative(root, target.dir) : target.dir;
  if (existsSync(target.node)) {
    const { version } = JSON.parse(readFileSync(join(target.packageDir, "package.json"), "utf8"));
    say(`${why}; using Node.js ${version} from ${where}/`);
  } else {
    say(`${why}; installing ${target.spec} from the npm registry into ${where}/ (once) and using it`);
    install(target);
  }
  const env = {
    ...process.env,
    PATH: `${target.bin}${delimiter}${process.env.PATH || ""}`,
    // Native builds (node-gyp) use this Node's own headers, shipped in the package's include/.
    npm_config_nodedir: target.packageDir,
    [SWITCHED]: "1",
  };
  return { node: target.node, env };
}

/** Runs argv on the chosen Node; resolves with the child's exit code or signal. */
export async function runWithSupportedNode(argv, { build = false } = {}) {
  const { node, env } = chooseNode();
  if (build && !buildChangedAndSay({ node, env })) return { code: 1, signal: null };
  const [command, ...args] = argv;
  const child = spawn(command === "node" ? node : command, args, { env, stdio: "inherit" });
  // A terminal's Ctrl-C reaches the whole process group, the child included: passing SIGINT on
  // as well would deliver it twice (and a second SIGINT ends a graceful shutdown early).
  const forward = (signal) => child.kill(signal);
  const ignore = () => undefined;
  process.on("SIGTERM", forward);
  process.on("SIGHUP", forward);
  process.on("SIGINT", ignore);
  return new Promise((resolve) => {
    child.on("error", (error) => {
      say(`${command}: ${error.message}`);
      resolve({ code: 127, signal: null });
    });
    child.on("exit", (code, signal) => {
      process.off("SIGTERM", forward);
      process.off("SIGHUP", forward);
      process.off("SIGINT", ignore);
      resolve({ code, signal });
    });
  });
}

/** Ends this process the way the child ended. */
export function exitLike({ code, signal }) {
  if (signal) process.kill(process.pid, signal);
  else process.exit(code ?? 1);
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const argv = process.argv.slice(2);
  const build = argv[0] === "--build";
  if (build) argv.shift();
  if (!argv.length) {
    say("usage: node scripts/with-supported-node.mjs [--build] <command> [args...]");
    process.exit(64);
  }
  runWithSupportedNode(argv, { build }).then(exitLike, (error) => {
    say(error.message);
    process.exit(1);
  });
}
