#!/usr/bin/env node
// `openpractice` in a checkout (`npx openpractice <command>`, `npm start`, `npm run seed`): brings
// the packages' build up to date (only what changed) and runs the runtime's CLI on a supported
// Node.js, installing one from the npm registry when the machine's own is older.
import { fileURLToPath } from "node:url";
import { exitLike, runWithSupportedNode } from "./with-supported-node.mjs";

const CLI = fileURLToPath(new URL("../packages/runtime/bin/openpractice.mjs", import.meta.url));

runWithSupportedNode(["node", CLI, ...process.argv.slice(2)], { build: true }).then(exitLike, (error) => {
  process.stderr.write(`openpractice: ${error.message}\n`);
  process.exit(1);
});
