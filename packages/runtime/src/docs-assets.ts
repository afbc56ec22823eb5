import { readFile } from "node:fs/promises";
import { join } from "node:path";
import type { DocsAssets } from "@openpractice/http";
import { getAbsoluteFSPath } from "swagger-ui-dist";

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
