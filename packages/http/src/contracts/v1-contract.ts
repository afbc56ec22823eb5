import type { DomainError, ErrorCode } from "@openpractice/core";
import { describeForWire, type FieldNames } from "./field-names.js";
import { jsonResponse } from "./json-response.js";

/** v1 success code (spec 4). */
export const V1_SUCCESS_CODE = 2000;
/** v1 answer to registering a patient who already exists: the existing record comes back with this code. */
export const V1_PATIENT_EXISTS_CODE = 2301;

/**
 * Each domain error code once, as the v1 envelope shows it: a numeric code and
 * the HTTP status. Spec 7.1's SOAP codes (4004, 4001) go with HTTP 200 when they
 * arrive with the SOAP module; the rest use the status of their class.
 */
export const V1_ERROR_MAP: Readonly<Record<ErrorCode, { code: number; status: number }>> = Object.freeze({
  VALIDATION_FAILED: { code: 4000, status: 400 },
  INVALID_PARAMETER: { code: 4000, status: 400 },
  MALFORMED_JSON: { code: 4002, status: 400 },
  UNAUTHORIZED: { code: 4010, status: 401 },
  INSUFFICIENT_PERMISSIONS: { code: 4030, status: 403 },
  PATIENT_NOT_FOUND: { code: 4040, status: 404 },
  CLINIC_NOT_FOUND: { code: 4041, status: 400 },
  ROUTE_NOT_FOUND: { code: 4049, status: 404 },
  METHOD_NOT_ALLOWED: { code: 4050, status: 405 },
  DUPLICATE_PATIENT: { code: 4090, status: 409 },
  UNKNOWN_REFERENCE: { code: 4006, status: 400 },
  APPOINTMENT_NOT_FOUND: { code: 4004, status: 404 },
  SCHEDULE_CONFLICT: { code: 4091, status: 409 },
  INVALID_TRANSITION: { code: 4092, status: 409 },
  CASE_NOT_FOUND: { code: 4043, status: 404 },
  REFERRING_PHYSICIAN_NOT_FOUND: { code: 4044, status: 404 },
  AUTHORIZATION_NOT_FOUND: { code: 4045, status: 404 },
  DUPLICATE_REFERRING_PHYSICIAN: { code: 4095, status: 409 },
  VISIT_LIMIT_REACHED: { code: 4093, status: 409 },
  NO_VALID_AUTHORIZATION: { code: 4094, status: 409 },
  INVALID_API_VERSION: { code: 4007, status: 400 },
  CANNOT_REMOVE_ALL_EVENTS: { code: 4008, status: 400 },
  DUPLICATE_SUBSCRIPTION: { code: 4096, status: 409 },
  SUBSCRIPTION_NOT_FOUND: { code: 4046, status: 404 },
  DELIVERY_NOT_FOUND: { code: 4047, status: 404 },
  DEVICE_NOT_FOUND: { code: 4056, status: 404 },
  NOTIFICATION_NOT_FOUND: { code: 4057, status: 404 },
  IDEMPOTENCY_KEY_REUSED: { code: 4220, status: 422 },
  PUSH_NOT_CONFIGURED: { code: 5031, status: 503 },
  APPOINTMENT_CANCELLED: { code: 4001, status: 409 },
  SOAP_NOTE_NOT_FOUND: { code: 4048, status: 404 },
  FORM_SUBMISSION_NOT_FOUND: { code: 4051, status: 404 },
  VERSION_CONFLICT: { code: 4097, status: 409 },
  TREATMENT_SHEET_NOT_FOUND: { code: 4052, status: 404 },
  TREATMENT_SHEET_EXISTS: { code: 4098, status: 409 },
  SIGNER_NOT_ALLOWED: { code: 4031, status: 403 },
  NOTE_INCOMPLETE: { code: 4099, status: 409 },
  DOCUMENT_NOT_FOUND: { code: 4053, status: 404 },
  PLAN_OF_CARE_NOT_FOUND: { code: 4054, status: 404 },
  CLAIM_NOT_FOUND: { code: 4055, status: 404 },
  PAYLOAD_TOO_LARGE: { code: 4130, status: 413 },
  UNSUPPORTED_MEDIA_TYPE: { code: 4150, status: 415 },
  RATE_LIMIT_EXCEEDED: { code: 4290, status: 429 },
  INTERNAL_ERROR: { code: 5000, status: 500 },
  SERVICE_UNAVAILABLE: { code: 5030, status: 503 },
});

/** OpenAPI schema of a v1 success body around `data`. */
export function v1EnvelopeSchema(data: object): Record<string, unknown> {
  return {
    type: "object",
    required: ["code", "data", "message"],
    properties: { code: { type: "integer", enum: [V1_SUCCESS_CODE] }, data, message: { type: "string" } },
  };
}

/** The v1 pagination object of list replies (appointments, notes, physicians, authorizations, ICD codes). */
export function v1Pagination(p: { page: number; size: number; total: number }) {
  const totalPages = Math.ceil(p.total / p.size);
  return { page: p.page, size: p.size, total_count: p.total, total_pages: totalPages, has_next: p.page < totalPages };
}

/** The paging block of the webhook and notification APIs (current_page / per_page, as spec 4.4's lists). */
export function v1CurrentPagePagination(p: { page: number; size: number; total: number }) {
  const totalPages = Math.ceil(p.total / p.size);
  return { current_page: p.page, per_page: p.size, total_count: p.total, total_pages: totalPages, has_next: p.page < totalPages };
}

export function v1Success(data: unknown, code = V1_SUCCESS_CODE, message = "Success"): Response {
  return jsonResponse(200, { code, data, message });
}

/**
 * `{code, data: null, message}` plus `error_code` (the stable domain code),
 * `errors` (one entry per field) when there are field issues, and `details`
 * (e.g. the conflicting patient, the reason a token was refused) when there are any.
 */
export function v1Error(error: DomainError, names?: FieldNames, headers: Record<string, string> = {}, statusOverride?: number): Response {
  const mapped = V1_ERROR_MAP[error.code];
  const { message, issues, details } = describeForWire(error, names);
  const body: Record<string, unknown> = { code: mapped.code, data: null, message, error_code: error.code };
  if (issues?.length) body.errors = issues;
  if (Object.keys(details).length > 0) body.details = details;
  // A route whose contract answers errors with another status (spec 7.1: SOAP creation, always 200) keeps the code.
  const status = statusOverride !== undefined && mapped.status < 500 && error.code !== "UNAUTHORIZED" && error.code !== "RATE_LIMIT_EXCEEDED" ? statusOverride : mapped.status;
  return jsonResponse(status, body, headers);
}
