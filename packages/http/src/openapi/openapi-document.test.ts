import { describe, expect, it } from "vitest";
import { jsonResponse } from "../contracts/json-response.js";
import type { RouteDefinition } from "../route.js";
import { buildOpenApiDocument, openApiDocumentAt } from "./openapi-document.js";
import { integer, replyObject, plainText } from "./reply-schemas.js";

const route = (path: string, schema: Record<string, unknown>, auth = false): RouteDefinition => ({
  method: "GET",
  path,
  contract: path.startsWith("/v2/") ? "v2" : "v1",
  operationId: `get${path.replace(/\W/g, "")}`,
  summary: "A test route",
  tags: ["Test"],
  auth,
  responses: { "200": { description: "The thing", schema } },
  handle: async () => jsonResponse(200, {}),
});

type Operation = { responses: Record<string, { content: Record<string, { schema: unknown }> }> };
/** The JSON schema of a GET operation's reply. */
const responseSchema = (doc: { paths: Record<string, Record<string, unknown>> }, path: string, status: string) =>
  (doc.paths[path]!.get as Operation).responses[status]!.content["application/json"]!.schema;

describe("buildOpenApiDocument", () => {
  it("names titled reply schemas as components and refers to them, however deep and however often", () => {
    const address = replyObject({ city: plainText }, { title: "Address" });
    const thing = replyObject({ id: integer, address }, { title: "Thing" });
    const doc = buildOpenApiDocument([
      route("/v2/things", replyObject({ data: { type: "array", items: thing } })),
      route("/v2/things/:id", thing),
    ]);
    expect(doc.components.schemas.Thing).toEqual({
      ...thing,
      properties: { id: integer, address: { $ref: "#/components/schemas/Address" } },
    });
    expect(doc.components.schemas.Address).toEqual(address);
    const schemaOf = (path: string) => responseSchema(doc, path, "200");
    expect(schemaOf("/v2/things/{id}")).toEqual({ $ref: "#/components/schemas/Thing" });
    expect(schemaOf("/v2/things")).toMatchObject({
      properties: { data: { items: { $ref: "#/components/schemas/Thing" } } },
    });
    // The error shapes the routes refer to by $ref are always there.
    expect(Object.keys(doc.components.schemas)).toEqual(expect.arrayContaining(["V1Error", "V2Error", "FieldIssue"]));
  });

  it("refuses two different schemas with one name", () => {
    expect(() =>
      buildOpenApiDocument([
        route("/v2/a", replyObject({ id: integer }, { title: "Thing" })),
        route("/v2/b", replyObject({ id: plainText }, { title: "Thing" })),
      ]),
    ).toThrow(/Two different schemas are named Thing/);
  });

  it("refuses a $ref to a component it does not define", () => {
    expect(() => buildOpenApiDocument([route("/v2/a", { $ref: "#/components/schemas/Nowhere" })])).toThrow(
      /refers to #\/components\/schemas\/Nowhere/,
    );
  });

  it("documents the header-overflow 401 on every route, in the error shape of the path", () => {
    const doc = buildOpenApiDocument([
      route("/healthz", { type: "object" }),
      route("/v2/things", { type: "object" }, true),
    ]);
    const unauthorized = (path: string) => responseSchema(doc, path, "401");
    expect(unauthorized("/healthz")).toEqual({ $ref: "#/components/schemas/V1Error" });
    expect(unauthorized("/v2/things")).toEqual({ $ref: "#/components/schemas/V2Error" });
  });

  it("names the mount path as the server", () => {
    const doc = buildOpenApiDocument([route("/healthz", { type: "object" })]);
    expect(doc.servers).toEqual([{ url: "/", description: expect.any(String) }]);
    expect(openApiDocumentAt(doc, "/emr").servers).toEqual([{ url: "/emr", description: expect.any(String) }]);
    expect(openApiDocumentAt(doc, "").servers[0]?.url).toBe("/");
  });
});
