#!/usr/bin/env node
// The `openpractice` command. It checks the Node.js version before anything else is loaded:
// the CLI imports better-sqlite3, whose native addon crashes on unsupported lines (a segfault
// on Node 20), and a crash half-way through a migration would leave the database half-migrated.
import { isSupportedNode, unsupportedNodeMessage } from "./node-support.mjs";

if (!isSupportedNode()) {
  process.stderr.write(`${unsupportedNodeMessage()}\n`);
  process.exit(1);
}
// V8's code cache for the modules the CLI loads: a restart then compiles almost nothing.
const { enableCompileCache } = await import("node:module");
enableCompileCache?.();
await import("../dist/cli.js");
