// Which Node.js versions the runtime supports, read from this package's `engines.node`.
// Plain JavaScript with no imports beyond node:fs, so it runs on any Node that can load an ES
// module: an old Node must get a clear refusal, not a crash inside a native addon.
import { readFileSync } from "node:fs";

const manifest = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));

/** The supported range as package.json states it, e.g. "^22.12.0 || >=24.0.0". */
export const SUPPORTED_NODE_RANGE = manifest.engines.node;

const parse = (version) =>
  String(version)
    .replace(/^v/, "")
    .split(".")
    .map((part) => Number.parseInt(part, 10) || 0);

const atLeast = (v, min) =>
  v[0] !== min[0] ? v[0] > min[0] : v[1] !== min[1] ? v[1] > min[1] : (v[2] ?? 0) >= (min[2] ?? 0);

// Only the two comparator forms the policy uses: "^X.Y.Z" (that line, from X.Y.Z) and ">=X.Y.Z".
const comparator = (text) => {
  const match = /^(\^|>=)(\d+(?:\.\d+){0,2})$/.exec(text.trim());
  if (!match) throw new Error(`engines.node: unsupported comparator '${text}'`);
  const min = parse(match[2]);
  return match[1] === "^" ? (v) => v[0] === min[0] && atLeast(v, min) : (v) => atLeast(v, min);
};

const alternatives = SUPPORTED_NODE_RANGE.split("||").map(comparator);

/** Whether a Node.js version ("22.12.0" or "v22.12.0") is within the supported range. */
export function isSupportedNode(version = process.versions.node) {
  const v = parse(version);
  return alternatives.some((test) => test(v));
}

/** The one line printed when the running Node.js is outside the range. */
export function unsupportedNodeMessage(version = process.versions.node) {
  return `openpractice: Node.js ${version} is not supported; supported versions: ${SUPPORTED_NODE_RANGE} (the LTS lines 22 and 24; see docs/node-support.md)`;
}
