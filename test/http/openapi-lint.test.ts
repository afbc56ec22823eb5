import { createPractice } from "@openpractice/core";
import { createHttpHandler, createTokenIssuer, generateSigningKey } from "@openpractice/http";
import { MemoryStorage, testPracticeKeys } from "@openpractice/testing";
import { createConfig, lintFromString } from "@redocly/openapi-core";
import { describe, expect, it } from "vitest";

/**
 * The OpenAPI document passes Redocly's recommended rules (an independent linter): no errors, and no warnings on
 * the v2 paths. The warnings left are the spec's own v1 paths (ambiguous by design, e.g.
 * /apis/v1/appointment/{appointment_id}/history beside /apis/v1/appointment/appointment-cancel/{appointment_id})
 * and public routes with no client error to describe (health, the document, the reference page, the VAPID key,
 * the token endpoint's metadata and key set).
 */
describe("the OpenAPI document, linted by @redocly/openapi-core", () => {
  it("has no errors, and no warnings on /v2 paths and the token endpoint", async () => {
    const practice = createPractice({ storage: new MemoryStorage(), keys: testPracticeKeys() });
    const handler = createHttpHandler({
      practice,
      // With a token issuer, so the token endpoint and the key set are in the document too.
      tokenIssuer: createTokenIssuer({ keys: [await generateSigningKey()] }),
      authenticator: {
        authenticate: async () => {
          throw new Error("no token needed for /openapi.json");
        },
      },
    });
    const source = await (await handler(new Request("http://127.0.0.1/openapi.json"))).text();
    const problems = await lintFromString({
      source,
      absoluteRef: "/openapi.json",
      config: await createConfig({ extends: ["recommended"] }),
    });
    const describe = (p: (typeof problems)[number]) =>
      `${p.severity} ${p.ruleId} ${p.location[0]?.pointer}: ${p.message}`;
    expect(problems.filter((p) => p.severity === "error").map(describe)).toEqual([]);
    expect(
      problems.filter((p) => p.location.some((l) => /~1(v2|oauth)~1/.test(l.pointer ?? ""))).map(describe),
    ).toEqual([]);
    expect(JSON.parse(source).paths["/oauth/token"].post.requestBody.content).toHaveProperty(
      "application/x-www-form-urlencoded",
    );
    const allowed = new Set(["no-ambiguous-paths", "operation-4xx-response"]);
    expect(problems.filter((p) => !allowed.has(p.ruleId)).map(describe)).toEqual([]);
    for (const p of problems.filter((x) => x.ruleId === "operation-4xx-response"))
      expect(p.location[0]?.pointer, describe(p)).toMatch(
        /~1(healthz|readyz|openapi\.json|docs|vapid-public-key|\.well-known)/,
      );
  });
});
