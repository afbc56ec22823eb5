import { readFileSync } from "node:fs";
import { join } from "node:path";
import {
  BaseResolver,
  createConfig,
  IGNORE_FILE,
  lintFromString,
  loadIgnoreConfig,
  parseYaml,
} from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";
import { currentOpenApiDocument } from "../../scripts/openapi-document.mjs";

const ROOT = join(import.meta.dirname, "../..");

/**
 * The OpenAPI document passes Redocly's recommended rules (an independent linter): no errors and no warnings. The
 * only problems accepted are the ones the repository's lint-ignore file lists (the format and the file
 * `redocly lint --generate-ignore-file` writes, honoured as the CLI honours it): the spec's own v1 paths, ambiguous
 * by design (e.g. /apis/v1/appointment/{appointment_id}/start beside
 * /apis/v1/appointment/appointment-cancel/{appointment_id}). The document is linted as `openapi.json` at the
 * repository root, the name the ignore file gives it.
 */
describe("the OpenAPI document, linted by @redocly/openapi-core", () => {
  it("has no errors and no warnings beyond the ambiguous v1 paths the lint-ignore file accepts", async () => {
    // With the token endpoint and the key set, as a server with a token issuer serves it.
    const source = JSON.stringify(await currentOpenApiDocument());
    // As the CLI loads it: the ignore file beside the configuration (none here: the repository root).
    const configPath = join(ROOT, "redocly.yaml");
    const ignore = await loadIgnoreConfig(configPath, new BaseResolver());
    const problems = await lintFromString({
      source,
      absoluteRef: join(ROOT, "openapi.json"),
      config: await createConfig({ extends: ["recommended"] }, { configPath, ignore }),
    });
    const describe = (p: (typeof problems)[number]) =>
      `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`;
    const open = problems.filter((p) => !p.ignored);
    expect(open.map(describe)).toEqual([]);

    // The ignore file accepts ambiguous paths only, and each entry still matches a problem (no stale entries).
    const listed = parseYaml(readFileSync(join(ROOT, IGNORE_FILE), "utf8")) as Record<string, Record<string, string[]>>;
    expect(Object.keys(listed)).toEqual(["openapi.json"]);
    expect(Object.keys(listed["openapi.json"]!)).toEqual(["no-ambiguous-paths"]);
    const ignored = problems.filter((p) => p.ignored);
    expect(new Set(ignored.map((p) => p.ruleId))).toEqual(new Set(["no-ambiguous-paths"]));
    expect(new Set(ignored.map((p) => p.location[0]?.pointer))).toEqual(
      new Set(listed["openapi.json"]!["no-ambiguous-paths"]),
    );
    for (const p of ignored) expect(p.location[0]?.pointer, describe(p)).toMatch(/^#\/paths\/~1apis~1v1~1/);

    expect(JSON.parse(source).paths["/oauth/token"].post.requestBody.content).toHaveProperty(
      "application/x-www-form-urlencoded",
    );
  });
});
