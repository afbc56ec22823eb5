import type { DomainError } from "@openpractice/core";
import { anyObject, arrayOf, oneOfStrings, plainText, replyObject } from "../openapi/reply-schemas.js";
import type { JsonSchema } from "../validation/json-schema.js";
import { describeForWire, type FieldNames } from "./field-names.js";

/** The media type of every FHIR answer (FHIR R4 http.html#mime-type). */
export const FHIR_JSON = "application/fhir+json; charset=utf-8";

/** FHIR R4's IssueType codes (valueset issue-type) the facade answers with. */
type IssueType =
  | "invalid"
  | "not-found"
  | "forbidden"
  | "login"
  | "throttled"
  | "not-supported"
  | "conflict"
  | "too-long"
  | "transient"
  | "exception"
  | "processing";

/** Which IssueType a domain error is, by its HTTP status (the v2 map decides the status, once for both). */
function issueTypeOf(status: number, code: string): IssueType {
  if (code === "METHOD_NOT_ALLOWED" || code === "ROUTE_NOT_FOUND") return "not-supported";
  if (status === 400 || status === 422) return "invalid";
  if (status === 401) return "login";
  if (status === 403) return "forbidden";
  if (status === 404 || status === 410) return "not-found";
  if (status === 409 || status === 412) return "conflict";
  if (status === 413) return "too-long";
  if (status === 429) return "throttled";
  if (status === 503) return "transient";
  if (status >= 500) return "exception";
  return "processing";
}

/**
 * A FHIR R4 `OperationOutcome` (the error of every /fhir/R4 route): one issue per named field or parameter, else one
 * for the error. `details.text` carries the stable error code (docs/errors.md), `diagnostics` the message,
 * `expression` the parameter or field (FHIRPath-ish: the search parameter's name as sent).
 */
export function fhirOperationOutcome(error: DomainError, status: number, names?: FieldNames) {
  const { message, issues, details } = describeForWire(error, names);
  const severity = status >= 500 ? "fatal" : "error";
  const code = issueTypeOf(status, error.code);
  const named =
    issues && issues.length > 0
      ? issues.map((i) => ({ field: i.field, diagnostics: `${i.field}: ${i.reason}` }))
      : typeof details.parameter === "string"
        ? [{ field: details.parameter, diagnostics: message }]
        : [{ field: undefined, diagnostics: message }];
  return {
    resourceType: "OperationOutcome",
    issue: named.map((n) => ({
      severity,
      code,
      details: { text: error.code },
      diagnostics: n.diagnostics,
      ...(n.field ? { expression: [n.field] } : {}),
    })),
  };
}

/** The answer of a failed /fhir/R4 request: the OperationOutcome with the status of its error code. */
export function fhirError(
  error: DomainError,
  status: number,
  names?: FieldNames,
  headers: Record<string, string> = {},
): Response {
  return fhirResponse(status, fhirOperationOutcome(error, status, names), headers);
}

/** A FHIR JSON answer. */
export function fhirResponse(status: number, body: unknown, headers: Record<string, string> = {}): Response {
  return new Response(JSON.stringify(body), { status, headers: { "content-type": FHIR_JSON, ...headers } });
}

/** The OperationOutcome as the OpenAPI document shows it. */
export const FHIR_OPERATION_OUTCOME_SCHEMA: JsonSchema = replyObject(
  {
    resourceType: { type: "string", const: "OperationOutcome" },
    issue: arrayOf(
      replyObject(
        {
          severity: oneOfStrings(["fatal", "error", "warning", "information"]),
          code: { ...plainText, description: "FHIR IssueType (invalid, not-found, forbidden, login, throttled, …)" },
          details: { ...anyObject, description: "`text`: the stable error code (docs/errors.md)" },
          diagnostics: plainText,
          expression: arrayOf(plainText, "The search parameter or field at fault, as sent"),
        },
        { optional: ["details", "diagnostics", "expression"] },
      ),
    ),
  },
  { title: "FhirOperationOutcome" },
);
