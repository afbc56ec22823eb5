import { errorCodes, type DomainError } from "@openpractice/core";
import type { V1ErrorMapping } from "../http-module.js";
import { anyObject, boolean, integer, replyObject, plainText } from "../openapi/reply-schemas.js";
import type { JsonSchema } from "../validation/json-schema.js";
import { describeForWire, type FieldNames } from "./field-names.js";
import { jsonResponse } from "./json-response.js";

/** v1 success code (spec 4). */
export const V1_SUCCESS_CODE = 2000;
/** v1 answer to registering a patient who already exists: the existing record comes back with this code. */
export const V1_PATIENT_EXISTS_CODE = 2301;

/**
 * OpenAPI schema of a v1 success body around `data`: code (2000, or the route's other success codes), data and
 * message are always sent.
 */
export function v1EnvelopeSchema(data: JsonSchema, codes: readonly number[] = [V1_SUCCESS_CODE]): JsonSchema {
  return replyObject({ code: { type: "integer", enum: [...codes] }, data, message: plainText });
}

/** One field's problem in a validation error (v1 `errors`, v2 `details.errors`). */
export const FIELD_ISSUE_SCHEMA = replyObject(
  {
    field: { type: "string", description: "The field as the client sent it, dot-separated (address.zip_code)" },
    reason: plainText,
    value: { description: "The value sent, when there was one (long values cut)" },
  },
  { title: "FieldIssue", optional: ["value"] },
);

/** The v1 error body (v1Error): `errors` with field issues and `details` when there are any. */
export const V1_ERROR_SCHEMA = replyObject(
  {
    code: {
      type: "integer",
      description: "v1 numeric code, e.g. 4000 validation, 4010 unauthorized, 4040 patient not found",
    },
    data: { type: "null" },
    message: plainText,
    error_code: { type: "string", enum: [...errorCodes()], description: "The stable error code (docs/errors.md)" },
    errors: { type: "array", items: FIELD_ISSUE_SCHEMA },
    details: { ...anyObject, description: "What the error names, e.g. the existing patient or the current status" },
  },
  {
    title: "V1Error",
    optional: ["errors", "details"],
    examples: [
      {
        code: 4000,
        data: null,
        message: "Invalid input: date_of_birth: must be a valid date",
        error_code: "VALIDATION_FAILED",
        errors: [{ field: "date_of_birth", reason: "must be a valid date", value: "1990-02-30" }],
      },
    ],
  },
);

/** The v1 pagination object of list replies (appointments, notes, physicians, authorizations, ICD codes). */
export const V1_PAGINATION_SCHEMA = replyObject(
  { page: integer, size: integer, total_count: integer, total_pages: integer, has_next: boolean },
  { title: "V1Pagination" },
);

/** The v1 pagination object of list replies (appointments, notes, physicians, authorizations, ICD codes). */
export function v1Pagination(p: { page: number; size: number; total: number }) {
  const totalPages = Math.ceil(p.total / p.size);
  return { page: p.page, size: p.size, total_count: p.total, total_pages: totalPages, has_next: p.page < totalPages };
}

/** The paging block of the webhook and notification APIs (current_page / per_page, as spec 4.4's lists). */
export const V1_CURRENT_PAGE_PAGINATION_SCHEMA = replyObject(
  { current_page: integer, per_page: integer, total_count: integer, total_pages: integer, has_next: boolean },
  { title: "CurrentPagePagination" },
);

/** The paging block of the webhook and notification APIs (current_page / per_page, as spec 4.4's lists). */
export function v1CurrentPagePagination(p: { page: number; size: number; total: number }) {
  const totalPages = Math.ceil(p.total / p.size);
  return {
    current_page: p.page,
    per_page: p.size,
    total_count: p.total,
    total_pages: totalPages,
    has_next: p.page < totalPages,
  };
}

export function v1Success(data: unknown, code = V1_SUCCESS_CODE, message = "Success"): Response {
  return jsonResponse(200, { code, data, message });
}

/**
 * `{code, data: null, message}` plus `error_code` (the stable domain code),
 * `errors` (one entry per field) when there are field issues, and `details`
 * (e.g. the conflicting patient, the reason a token was refused) when there are any.
 * `mapped` is the code's entry of V1_ERROR_MAP (http-modules.ts).
 */
export function v1Error(
  error: DomainError,
  mapped: V1ErrorMapping,
  names?: FieldNames,
  headers: Record<string, string> = {},
  statusOverride?: number,
): Response {
  const { message, issues, details } = describeForWire(error, names);
  const body: Record<string, unknown> = { code: mapped.code, data: null, message, error_code: error.code };
  if (issues?.length) body.errors = issues;
  if (Object.keys(details).length > 0) body.details = details;
  // A route whose contract answers errors with another status (spec 7.1: SOAP creation, always 200) keeps the code.
  const status =
    statusOverride !== undefined &&
    mapped.status < 500 &&
    error.code !== "UNAUTHORIZED" &&
    error.code !== "RATE_LIMIT_EXCEEDED"
      ? statusOverride
      : mapped.status;
  return jsonResponse(status, body, headers);
}
