import type { DomainError, ErrorCode } from "@openpractice/core";
import { describeForWire, type FieldNames } from "./field-names.js";
import { jsonResponse } from "./json-response.js";

/** Version string reported in v2 `meta.api_version`. */
export const V2_API_VERSION = "2.0-beta";

/** Each domain error code once, as a v2 HTTP status; the code itself is the v2 `error.code`. */
export const V2_STATUS_MAP: Readonly<Record<ErrorCode, number>> = Object.freeze({
  VALIDATION_FAILED: 400,
  INVALID_PARAMETER: 400,
  MALFORMED_JSON: 400,
  UNAUTHORIZED: 401,
  INSUFFICIENT_PERMISSIONS: 403,
  PATIENT_NOT_FOUND: 404,
  CLINIC_NOT_FOUND: 400,
  ROUTE_NOT_FOUND: 404,
  METHOD_NOT_ALLOWED: 405,
  DUPLICATE_PATIENT: 409,
  UNKNOWN_REFERENCE: 400,
  APPOINTMENT_NOT_FOUND: 404,
  SCHEDULE_CONFLICT: 409,
  INVALID_TRANSITION: 409,
  CASE_NOT_FOUND: 404,
  REFERRING_PHYSICIAN_NOT_FOUND: 404,
  AUTHORIZATION_NOT_FOUND: 404,
  DUPLICATE_REFERRING_PHYSICIAN: 409,
  VISIT_LIMIT_REACHED: 409,
  NO_VALID_AUTHORIZATION: 409,
  INVALID_API_VERSION: 400,
  CANNOT_REMOVE_ALL_EVENTS: 400,
  DUPLICATE_SUBSCRIPTION: 409,
  SUBSCRIPTION_NOT_FOUND: 404,
  DELIVERY_NOT_FOUND: 404,
  DEVICE_NOT_FOUND: 404,
  NOTIFICATION_NOT_FOUND: 404,
  IDEMPOTENCY_KEY_REUSED: 422,
  PUSH_NOT_CONFIGURED: 503,
  APPOINTMENT_CANCELLED: 409,
  SOAP_NOTE_NOT_FOUND: 404,
  FORM_SUBMISSION_NOT_FOUND: 404,
  VERSION_CONFLICT: 409,
  TREATMENT_SHEET_NOT_FOUND: 404,
  TREATMENT_SHEET_EXISTS: 409,
  SIGNER_NOT_ALLOWED: 403,
  NOTE_INCOMPLETE: 409,
  DOCUMENT_NOT_FOUND: 404,
  PLAN_OF_CARE_NOT_FOUND: 404,
  CLAIM_NOT_FOUND: 404,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  RATE_LIMIT_EXCEEDED: 429,
  INTERNAL_ERROR: 500,
  SERVICE_UNAVAILABLE: 503,
});

export interface V2RequestContext {
  requestId: string;
  now: Date;
}

export function v2Meta(ctx: V2RequestContext, withVersion = true): Record<string, string> {
  return withVersion ? { timestamp: ctx.now.toISOString(), request_id: ctx.requestId, api_version: V2_API_VERSION } : { timestamp: ctx.now.toISOString(), request_id: ctx.requestId };
}

/** v2 identifiers are strings (spec 2.5), so id-valued details are too, whatever the domain carried. */
function v2Detail(key: string, value: unknown): unknown {
  return key.endsWith("_id") && typeof value === "number" ? String(value) : value;
}

/** `{error: {code, message, details}, meta: {timestamp, request_id}}` (spec 7.5). Field issues appear as details.errors. */
export function v2Error(error: DomainError, ctx: V2RequestContext, names?: FieldNames, headers: Record<string, string> = {}): Response {
  const { message, issues, details: bounded } = describeForWire(error, names);
  const details: Record<string, unknown> = Object.fromEntries(Object.entries(bounded).map(([k, v]) => [k, v2Detail(k, v)]));
  if (issues?.length) details.errors = issues;
  return jsonResponse(V2_STATUS_MAP[error.code], { error: { code: error.code, message, details }, meta: v2Meta(ctx, false) }, headers);
}
