import { ReadableStream as WebReadableStream } from "node:stream/web";
import {
  type BulkExport,
  type BulkExportKind,
  bulkExportError,
  dateRange,
  DomainError,
  hasAnyScope,
  PATIENT_EXPORT_TYPES,
  type Practice,
  type Principal,
  splitValues,
  SYSTEM_EXPORT_TYPES,
} from "@openpractice/core";
import { fhirResponse } from "../contracts/fhir-contract.js";
import { routeGroup } from "../define-route.js";
import type { RouteContext, RouteDefinition } from "../route.js";
import type { JsonSchema } from "../validation/json-schema.js";
import type { FhirResourceType } from "./fhir-resource-type.js";
import { isLenient } from "./fhir-search-request.js";
import { smartReadScopes } from "./smart-configuration.js";

const NDJSON_FORMATS = ["application/fhir+ndjson", "application/ndjson", "ndjson"];
/** Bulk Data 2.0 parameters we do not implement: refused unless the client accepts lenient handling. */
const UNSUPPORTED = ["_elements", "_typeFilter", "includeAssociatedData", "patient", "organizeOutputBy"];
/** A FHIR instant: to the second at least, with its time zone. */
const INSTANT = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,9})?(Z|[+-]\d{2}:\d{2})$/;
/** Seconds a client should wait between status polls while the export runs. */
const POLL_SECONDS = 2;
const OUTCOME = { $ref: "#/components/schemas/FhirOperationOutcome" } as const;

const MANIFEST_SCHEMA: JsonSchema = {
  title: "FhirBulkExportManifest",
  type: "object",
  description: "The Bulk Data 2.0 completion manifest: one output entry per NDJSON file",
  required: ["transactionTime", "request", "requiresAccessToken", "output", "error"],
  properties: {
    transactionTime: { type: "string" },
    request: { type: "string" },
    requiresAccessToken: { type: "boolean", const: true },
    output: {
      type: "array",
      items: {
        type: "object",
        required: ["type", "url", "count"],
        properties: { type: { type: "string" }, url: { type: "string" }, count: { type: "integer" } },
        additionalProperties: false,
      },
    },
    error: { type: "array", items: { type: "object", additionalProperties: true } },
  },
  additionalProperties: false,
};

/** The kick-off's query: `_type`, `_since`, `_outputFormat` (anything else refused, or ignored when lenient). */
function readKickOff(ctx: RouteContext, kind: BulkExportKind, readable: readonly string[]) {
  const lenient = isLenient(ctx.request);
  const params = ctx.url.searchParams;
  const refused: { field: string; reason: string; value: unknown }[] = [];
  for (const name of new Set(params.keys())) {
    if (["_type", "_since", "_outputFormat"].includes(name)) continue;
    // `patient` narrows an export to some patients: ignoring it would export them all, so it is refused always.
    if (lenient && name !== "patient") continue;
    refused.push({
      field: name,
      reason: UNSUPPORTED.includes(name) ? "is not supported by this server" : "is not a parameter of $export",
      value: params.get(name),
    });
  }
  if (refused.length) throw DomainError.validation(refused);
  const format = params.get("_outputFormat");
  if (format !== null && !NDJSON_FORMATS.includes(format))
    throw DomainError.invalidParameter("_outputFormat", format, `must be ${NDJSON_FORMATS.join(", ")}`);
  const rawSince = params.get("_since");
  let since: Date | null = null;
  if (rawSince !== null) {
    if (!INSTANT.test(rawSince))
      throw DomainError.invalidParameter("_since", rawSince, "must be a FHIR instant: date, time and time zone");
    since = dateRange("_since", rawSince).from ?? null;
  }
  const kindTypes: readonly string[] = kind === "system" ? SYSTEM_EXPORT_TYPES : PATIENT_EXPORT_TYPES;
  const asked = params.getAll("_type").flatMap(splitValues);
  if (asked.length === 0) return { types: kindTypes.filter((t) => readable.includes(t)), since };
  const unknown = asked.filter((t) => !kindTypes.includes(t));
  if (unknown.length)
    throw DomainError.invalidParameter("_type", unknown.join(","), `must name types of ${kindTypes.join(", ")}`);
  const forbidden = asked.filter((t) => !readable.includes(t));
  if (forbidden.length)
    throw new DomainError("INSUFFICIENT_PERMISSIONS", `This token may not read ${forbidden.join(", ")}`, {
      parameter: "_type",
      types: forbidden,
    });
  return { types: asked, since };
}

/** `Prefer: respond-async` is what makes a request a kick-off (Bulk Data 2.0). */
function requireRespondAsync(request: Request) {
  if (!/(^|[,;\s])respond-async\b/i.test(request.headers.get("prefer") ?? ""))
    throw DomainError.invalidParameter("Prefer", request.headers.get("prefer"), "must include respond-async");
}

/** What the status answers while the export runs. */
function progressOf(e: BulkExport): string {
  if (e.status === "queued") return "queued";
  const type = e.types[e.cursor.typeIndex];
  return `${e.exported} resources written${type ? `; writing ${type}` : ""}`;
}

function manifestOf(e: BulkExport, base: string) {
  return {
    transactionTime: e.transactionTime.toISOString(),
    request: e.requestUrl,
    requiresAccessToken: true,
    output: e.files.map((f) => ({
      type: f.type,
      url: `${base}/$export-file/${e.id}/${f.position}.ndjson`,
      count: f.count,
    })),
    error: [],
  };
}

/**
 * FHIR Bulk Data export (docs/fhir.md, "Bulk Data export"): kick-off at `$export` and `Patient/$export`, status
 * polling and DELETE at `$export-status/{id}`, the NDJSON files at `$export-file/{id}/{n}.ndjson`.
 */
export function bulkExportRoutes(
  practice: Practice,
  types: readonly FhirResourceType[],
  basePath: string,
  baseOf: (ctx: RouteContext) => string,
): RouteDefinition[] {
  const route = routeGroup({ contract: "fhir", tags: ["FHIR R4"], auth: true });
  const scopesOf = (type: string) => [...smartReadScopes(type), ...(types.find((t) => t.type === type)?.scopes ?? [])];
  const readableBy = (principal: Principal) =>
    SYSTEM_EXPORT_TYPES.filter((type) => hasAnyScope(principal, scopesOf(type)));
  const anyTypeScopes = Object.freeze([...new Set(SYSTEM_EXPORT_TYPES.flatMap(scopesOf))]);
  const kickOff = (kind: BulkExportKind, path: string, operationId: string, summary: string) =>
    route({
      method: "GET",
      path,
      operationId,
      summary,
      scopes: anyTypeScopes,
      rateLimitBucket: "fhir",
      rawQuery: true,
      query: {
        type: "object",
        properties: {
          _type: {
            type: "string",
            description: "Comma-separated resource types (default: every type the token reads)",
          },
          _since: { type: "string", description: "A FHIR instant: only resources changed after it" },
          _outputFormat: { type: "string", description: "application/fhir+ndjson (the default and only format)" },
        },
      },
      responses: {
        "202": { description: "Accepted: Content-Location names the status URL to poll" },
        "400": {
          description:
            "INVALID_PARAMETER or VALIDATION_FAILED: no Prefer: respond-async, an unknown or unsupported parameter, an unknown _type, a malformed _since",
          schema: OUTCOME,
        },
        "403": { description: "INSUFFICIENT_PERMISSIONS: _type names a type the token may not read", schema: OUTCOME },
        "429": {
          description: "BULK_EXPORT_LIMIT_REACHED: the organisation has as many exports in progress as it may",
          schema: OUTCOME,
        },
      },
      async handle(ctx) {
        // HEAD reaches GET routes; a kick-off must not start from one.
        if (ctx.request.method === "HEAD")
          throw new DomainError("METHOD_NOT_ALLOWED", "An export starts with GET (Prefer: respond-async), not HEAD");
        requireRespondAsync(ctx.request);
        const { types: wanted, since } = readKickOff(ctx, kind, readableBy(ctx.principal));
        const e = await practice.bulkExports.kickOff(ctx.principal, {
          kind,
          types: wanted,
          since,
          // As the client knows it: the public URL (the manifest's `request`); hosts strip a mount prefix, so the
          // path here starts at the facade's base.
          requestUrl: `${baseOf(ctx)}${ctx.url.pathname.slice(basePath.length)}${ctx.url.search}`,
        });
        return new Response(null, {
          status: 202,
          headers: { "content-location": `${baseOf(ctx)}/$export-status/${e.id}` },
        });
      },
    });
  return [
    kickOff(
      "system",
      `${basePath}/$export`,
      "fhirExportSystem",
      "Bulk Data export of the organisation (Prefer: respond-async): 202 with the status URL in Content-Location.",
    ),
    kickOff(
      "patient",
      `${basePath}/Patient/$export`,
      "fhirExportPatients",
      "Bulk Data export of every patient's compartment (Prefer: respond-async): 202 with the status URL.",
    ),
    route({
      method: "GET",
      path: `${basePath}/$export-status/:id`,
      operationId: "fhirExportStatus",
      summary: "A Bulk Data export's status: 202 with X-Progress while it runs, 200 with the manifest when complete.",
      scopes: anyTypeScopes,
      readsOnly: true,
      responses: {
        "200": { description: "The completion manifest", schema: MANIFEST_SCHEMA, contentType: "application/json" },
        "202": { description: "In progress: X-Progress says how far, Retry-After when to ask again" },
        "404": { description: "BULK_EXPORT_NOT_FOUND: no such export for this requester", schema: OUTCOME },
        "500": {
          description: "BULK_EXPORT_FAILED: the export failed (the reason is kept for operators)",
          schema: OUTCOME,
        },
      },
      async handle(ctx) {
        const e = await practice.bulkExports.status(ctx.principal, ctx.params.id);
        if (e.status === "failed")
          // The reason stays on the record for operators: it may name internals (a store path, a database error).
          throw bulkExportError("BULK_EXPORT_FAILED", "The export failed; kick off a new one", { export_id: e.id });
        if (e.status !== "completed")
          return new Response(null, {
            status: 202,
            headers: { "x-progress": progressOf(e), "retry-after": String(POLL_SECONDS) },
          });
        return fhirResponse(200, manifestOf(e, baseOf(ctx)), {
          "content-type": "application/json; charset=utf-8",
          ...(e.expiresAt ? { expires: e.expiresAt.toUTCString() } : {}),
        });
      },
    }),
    route({
      method: "DELETE",
      path: `${basePath}/$export-status/:id`,
      operationId: "fhirExportCancel",
      summary: "Cancels a Bulk Data export, or discards a finished one's files: 202.",
      scopes: anyTypeScopes,
      responses: {
        "202": { description: "Cancelled; the status URL answers 404 from now on" },
        "404": { description: "BULK_EXPORT_NOT_FOUND: no such export for this requester", schema: OUTCOME },
      },
      async handle(ctx) {
        await practice.bulkExports.cancel(ctx.principal, ctx.params.id);
        return new Response(null, { status: 202 });
      },
    }),
    route({
      method: "GET",
      path: `${basePath}/$export-file/:id/:file`,
      operationId: "fhirExportFile",
      summary: "One NDJSON file of a completed Bulk Data export (the manifest's output url), streamed.",
      scopes: anyTypeScopes,
      rateLimitBucket: "fhir",
      readsOnly: true,
      responses: {
        "200": { description: "The NDJSON file", binaryContentType: "application/fhir+ndjson" },
        "404": { description: "BULK_EXPORT_NOT_FOUND: no such export or file for this requester", schema: OUTCOME },
      },
      async handle(ctx) {
        const match = /^(\d{1,6})\.ndjson$/.exec(ctx.params.file);
        if (!match) throw bulkExportError("BULK_EXPORT_NOT_FOUND", "No such export file", { export_id: ctx.params.id });
        // The token must still read the file's type (a narrower token of the same requester may not).
        const { file, content } = await practice.bulkExports.file(
          ctx.principal,
          ctx.params.id,
          Number(match[1]),
          (type) => hasAnyScope(ctx.principal, scopesOf(type)),
        );
        // Pulled as the host writes (a cancelled download returns the iterator, which closes the store's stream).
        const body = WebReadableStream.from(content) as unknown as ReadableStream<Uint8Array>;
        return new Response(body, {
          status: 200,
          headers: {
            "content-type": "application/fhir+ndjson",
            "content-length": String(file.sizeBytes),
            "cache-control": "private, no-store",
          },
        });
      },
    }),
  ];
}
