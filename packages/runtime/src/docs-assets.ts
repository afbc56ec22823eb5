import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { DocsAssets } from "@openpractice/http";
// The path helper alone: the package's main module loads the whole 1.5 MB bundle (about 0.3 s at start-up).
import getAbsoluteFSPath from "swagger-ui-dist/absolute-path.js";

const FILES: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": "text/javascript; charset=utf-8",
};

/** Serves the reference page's files from swagger-ui-dist (self-hosted: no CDN, works offline). */
export function swaggerUiAssets(): DocsAssets {
  const root = getAbsoluteFSPath();
  const cache = new Map<string, Uint8Array>();
  return async (name) => {
    const contentType = FILES[name];
    if (!contentType) return null;
    let body = cache.get(name);
    if (!body) {
      body = await readFile(join(root, name));
      cache.set(name, body);
    }
    return { body, contentType };
  };
}
