import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { clientSources } from "../../scripts/client-sources.mjs";
import { currentOpenApiDocument } from "../../scripts/openapi-document.mjs";

const GENERATED = new URL("../../packages/client/src/generated/", import.meta.url);

describe("@openpractice/client's generated files", () => {
  it("match what the current routes generate (run `npm run generate:client` after changing a route)", async () => {
    const sources = await clientSources(await currentOpenApiDocument());
    expect(Object.keys(sources).sort()).toEqual(["idempotent-operations.ts", "openapi.ts"]);
    for (const [name, contents] of Object.entries(sources)) {
      const committed = readFileSync(fileURLToPath(new URL(name, GENERATED)), "utf8");
      // Not toBe: a stale file of 11,000 lines would print in full.
      expect(committed === contents, `packages/client/src/generated/${name} is stale`).toBe(true);
    }
  });
});
