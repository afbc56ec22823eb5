import { DomainError, type Practice } from "@openpractice/core";
import { jsonResponse } from "../contracts/json-response.js";
import { routeGroup } from "../define-route.js";
import { replyObject, plainText } from "../openapi/reply-schemas.js";
import type { RouteDefinition } from "../route.js";

/** Static files of the reference page: name → bytes and content type, or null when absent. */
export type DocsAssets = (name: string) => Promise<{ body: Uint8Array; contentType: string } | null>;

const DOCS_PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <title>OpenPractice API reference</title>
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <link rel="stylesheet" href="docs/assets/swagger-ui.css">
</head>
<body>
  <div id="reference"><noscript>The machine-readable document is at <a href="openapi.json">openapi.json</a>.</noscript></div>
  <script src="docs/assets/swagger-ui-bundle.js"></script>
  <script src="docs/assets/reference-init.js"></script>
</body>
</html>`;

// Relative URLs, so the page also works when the API is mounted under a prefix (e.g. /emr/docs).
const DOCS_INIT = `window.ui = SwaggerUIBundle({ url: new URL("openapi.json", document.baseURI).href, dom_id: "#reference", deepLinking: true, validatorUrl: null });`;

const route = routeGroup({ contract: "system", tags: ["System"], auth: false });

const HEALTH_SCHEMA = replyObject(
  { status: { type: "string", const: "ok" } },
  { title: "HealthStatus", examples: [{ status: "ok" }] },
);
const REPLICA_SCHEMA = replyObject(
  {
    name: { ...plainText, description: "host:port/database of the replica (DATABASE_READ_URL)" },
    status: { type: "string", enum: ["up", "down"] },
  },
  { title: "ReplicaStatus" },
);
const READY_SCHEMA = replyObject(
  {
    status: { type: "string", const: "ready" },
    replicas: {
      type: "array",
      items: REPLICA_SCHEMA,
      description:
        "Each read replica's state, present when DATABASE_READ_URL names replicas. A replica down leaves the service ready: its reads go to the primary.",
    },
  },
  {
    title: "ReadyStatus",
    optional: ["replicas"],
    examples: [
      { status: "ready" },
      { status: "ready", replicas: [{ name: "10.0.0.12:5432/openpractice", status: "down" }] },
    ],
  },
);
const NOT_READY_SCHEMA = replyObject(
  { status: { type: "string", const: "unavailable" }, reason: plainText },
  {
    title: "NotReadyStatus",
    description: "The database did not answer the readiness check",
    examples: [{ status: "unavailable", reason: "database unreachable" }],
  },
);

/** Strong ETags of the reference page's files, by name: the files do not change while the process runs. */
const etags = new Map<string, string>();
async function etagOf(name: string, body: Uint8Array): Promise<string> {
  let etag = etags.get(name);
  if (!etag) {
    const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", body as Uint8Array<ArrayBuffer>));
    etag = `"${Buffer.from(digest.subarray(0, 16)).toString("base64url")}"`;
    etags.set(name, etag);
  }
  return etag;
}

/** Liveness, readiness, the OpenAPI document and the reference page. No authentication. */
export function systemRoutes(deps: {
  practice: Practice;
  /** The OpenAPI document as served under the mount path ("" at the root). */
  openApi: (basePath: string) => object;
  docsAssets?: DocsAssets | undefined;
}): RouteDefinition[] {
  return [
    route({
      method: "GET",
      path: "/healthz",
      operationId: "healthz",
      summary: "Liveness: the process is up.",
      responses: { "200": { description: "Up", schema: HEALTH_SCHEMA } },
      handle: async () => jsonResponse(200, { status: "ok" }),
    }),
    route({
      method: "GET",
      path: "/readyz",
      operationId: "readyz",
      summary: "Readiness: the database answers.",
      responses: {
        "200": { description: "Ready: the database answers", schema: READY_SCHEMA },
        "503": { description: "Not ready: the database does not answer", schema: NOT_READY_SCHEMA },
      },
      async handle() {
        try {
          const { replicas } = await deps.practice.checkReady();
          if (replicas.length === 0) return jsonResponse(200, { status: "ready" });
          return jsonResponse(200, {
            status: "ready",
            replicas: replicas.map((r) => ({ name: r.name, status: r.up ? "up" : "down" })),
          });
        } catch {
          return jsonResponse(503, { status: "unavailable", reason: "database unreachable" });
        }
      },
    }),
    route({
      method: "GET",
      path: "/openapi.json",
      operationId: "openapi",
      summary: "This API's OpenAPI 3.1 document.",
      responses: {
        "200": {
          description:
            "The OpenAPI 3.1 document; its servers name the path the host mounted the API under (X-Forwarded-Prefix), or /",
          schema: {
            type: "object",
            required: ["openapi", "info", "servers", "paths", "components"],
            properties: {
              openapi: { type: "string", const: "3.1.0" },
              info: { type: "object" },
              servers: {
                type: "array",
                items: {
                  type: "object",
                  required: ["url"],
                  properties: { url: { type: "string" }, description: { type: "string" } },
                },
              },
              paths: { type: "object" },
              components: { type: "object" },
            },
          },
        },
      },
      handle: async (ctx) => jsonResponse(200, deps.openApi(ctx.basePath)),
    }),
    route({
      method: "GET",
      path: "/docs",
      operationId: "docs",
      summary: "Browsable API reference.",
      // /docs/ answers 301 to /docs (a path of its own, so not an answer of this operation).
      responses: { "200": { description: "HTML page", contentType: "text/html", schema: { type: "string" } } },
      handle: async (ctx) =>
        // The router matches /docs/ here too, where docs/assets/… would resolve to /docs/docs/assets/…. A relative
        // Location holds under any mount path, declared (X-Forwarded-Prefix) or not.
        ctx.url.pathname.endsWith("/")
          ? new Response(null, { status: 301, headers: { location: `../docs${ctx.url.search}` } })
          : new Response(DOCS_PAGE, { headers: { "content-type": "text/html; charset=utf-8" } }),
    }),
    route({
      method: "GET",
      path: "/docs/assets/:name",
      operationId: "docsAsset",
      summary: "Static files of the reference page.",
      responses: { "200": { description: "File" }, "404": { description: "No such file" } },
      async handle(ctx) {
        const name = ctx.params.name;
        const asset =
          name === "reference-init.js"
            ? { body: new TextEncoder().encode(DOCS_INIT), contentType: "text/javascript; charset=utf-8" }
            : deps.docsAssets
              ? await deps.docsAssets(name)
              : null;
        if (!asset) throw new DomainError("ROUTE_NOT_FOUND", `No reference page file named ${name}`);
        const etag = await etagOf(name, asset.body);
        const headers = { "content-type": asset.contentType, "cache-control": "public, max-age=3600", etag };
        // A browser holding this version revalidates with If-None-Match and gets 304 without the file.
        const held = ctx.request.headers.get("if-none-match");
        if (held?.split(",").some((t) => t.trim() === etag || t.trim() === "*"))
          return new Response(null, { status: 304, headers });
        return new Response(asset.body as unknown as BodyInit, { headers });
      },
    }),
  ];
}
