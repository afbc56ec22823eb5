#!/usr/bin/env node
// Prints /openapi.json byte for byte as the built packages serve it, to compare the document across a change:
//   npm run build && node scripts/print-openapi.mjs > before.json   (then again after it, and diff)
import { currentOpenApiText } from "./openapi-document.mjs";

process.stdout.write(await currentOpenApiText());
