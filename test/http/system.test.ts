import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

let rt: TestRuntime;
beforeAll(async () => {
  rt = await startTestRuntime();
});
afterAll(async () => {
  await rt.stop();
});

describe("health, readiness and the API reference", () => {
  it("answers /healthz and /readyz without a token", async () => {
    expect(await (await rt.call("GET", "/healthz", { token: null })).json()).toEqual({ status: "ok" });
    const ready = await rt.call("GET", "/readyz", { token: null });
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });

  it("serves an OpenAPI 3.1 document describing every patient operation with the validation schemas", async () => {
    const doc = await (await rt.call("GET", "/openapi.json", { token: null })).json();
    expect(doc.openapi).toBe("3.1.0");
    expect(Object.keys(doc.paths)).toEqual(
      expect.arrayContaining([
        "/apis/v1/patient",
        "/apis/v1/patient/{id}",
        "/v2/patients",
        "/v2/patients/{id}",
        "/healthz",
        "/readyz",
      ]),
    );
    const list = doc.paths["/v2/patients"].get;
    expect(list.parameters.map((p: { name: string }) => p.name)).toEqual([
      "page",
      "per_page",
      "search",
      "created_after",
      "created_before",
      "updated_after",
      "updated_before",
      "sort",
      "order",
      "status",
      "fields",
      "expand",
    ]);
    expect(list.parameters.find((p: { name: string }) => p.name === "per_page").schema).toMatchObject({
      minimum: 1,
      maximum: 100,
      default: 25,
    });
    expect(doc.paths["/apis/v1/patient"].post.requestBody.content["application/json"].schema.required).toEqual([
      "first_name",
      "last_name",
      "date_of_birth",
    ]);
    // Each operation's security requirement names the scopes it accepts (any one of them), public ones none.
    expect(doc.paths["/v2/staff"].post.security).toEqual([{ bearerAuth: ["staff:write"] }, { bearerAuth: ["write"] }]);
    expect(doc.paths["/v2/payers"].post.security).toEqual([
      { bearerAuth: ["payers:write"] },
      { bearerAuth: ["admin"] },
    ]);
    expect(doc.paths["/healthz"].get.security).toEqual([]);
    for (const [path, ops] of Object.entries<Record<string, { security: unknown[]; "x-required-scopes"?: string[] }>>(
      doc.paths,
    ))
      for (const [method, op] of Object.entries(ops))
        if (op["x-required-scopes"])
          expect(op.security, `${method} ${path}`).toEqual(op["x-required-scopes"].map((s) => ({ bearerAuth: [s] })));
    // Every schema in the document compiles as JSON Schema 2020-12 (the dialect OpenAPI 3.1 uses).
    const ajv = new Ajv2020({ strict: false });
    ajv.addSchema({ $id: "doc", components: doc.components } as never);
    for (const [path, ops] of Object.entries<Record<string, any>>(doc.paths)) {
      for (const op of Object.values(ops)) {
        const schema = Object.values<{ schema?: unknown }>(op.requestBody?.content ?? {})[0]?.schema;
        if (schema)
          expect(
            () => ajv.compile(JSON.parse(JSON.stringify(schema).replaceAll("#/components", "doc#/components"))),
            path,
          ).not.toThrow();
      }
    }
  });

  it("serves a browsable reference page with its assets, self-hosted", async () => {
    const page = await rt.call("GET", "/docs", { token: null });
    expect(page.headers.get("content-type")).toContain("text/html");
    const html = await page.text();
    expect(html).toContain('src="docs/assets/swagger-ui-bundle.js"');
    const bundle = await rt.call("GET", "/docs/assets/swagger-ui-bundle.js", { token: null });
    expect(bundle.status).toBe(200);
    expect((await bundle.text()).length).toBeGreaterThan(100_000);
    expect((await rt.call("GET", "/docs/assets/reference-init.js", { token: null })).status).toBe(200);
    // Strong ETags: a browser holding the file revalidates and gets 304 without it.
    const etag = bundle.headers.get("etag");
    expect(etag).toMatch(/^"[A-Za-z0-9_-]{22}"$/);
    const revalidated = await rt.call("GET", "/docs/assets/swagger-ui-bundle.js", {
      token: null,
      headers: { "if-none-match": etag! },
    });
    expect(revalidated.status).toBe(304);
    expect(await revalidated.text()).toBe("");
    const stale = await rt.call("GET", "/docs/assets/swagger-ui-bundle.js", {
      token: null,
      headers: { "if-none-match": '"older"' },
    });
    expect(stale.status).toBe(200);
    expect(stale.headers.get("etag")).toBe(etag);
    expect((await rt.call("GET", "/docs/assets/..%2Fpackage.json", { token: null })).status).toBe(404);
  });
});
