#!/usr/bin/env node
// Regenerates packages/client/src/generated/ from the OpenAPI document the built packages serve.
//   node scripts/generate-client.mjs          writes the files
//   node scripts/generate-client.mjs --check  writes nothing; exits 1 naming the stale files
// (`npm run generate:client` builds the packages first.)
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { clientSources } from "./client-sources.mjs";
import { currentOpenApiDocument } from "./openapi-document.mjs";

const dir = fileURLToPath(new URL("../packages/client/src/generated/", import.meta.url));
const check = process.argv.includes("--check");
const sources = await clientSources(await currentOpenApiDocument());
const stale = [];
for (const [name, contents] of Object.entries(sources)) {
  const file = join(dir, name);
  let current = "";
  try {
    current = readFileSync(file, "utf8");
  } catch {}
  if (current === contents) continue;
  stale.push(name);
  if (!check) writeFileSync(file, contents);
}
if (check && stale.length > 0) {
  process.stderr.write(`generate-client: stale: ${stale.join(", ")} (run npm run generate:client)\n`);
  process.exit(1);
}
process.stderr.write(
  stale.length > 0 ? `generate-client: wrote ${stale.join(", ")}\n` : "generate-client: up to date\n",
);
