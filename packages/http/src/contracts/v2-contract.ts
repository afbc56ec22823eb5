import { errorCodes, type DomainError, MAX_STORED_ID } from "@openpractice/core";
import {
  anyObject,
  boolean,
  dateTime,
  integer,
  integerOrNull,
  replyObject,
  plainText,
} from "../openapi/reply-schemas.js";
import type { JsonSchema } from "../validation/json-schema.js";
import { describeForWire, type FieldNames } from "./field-names.js";
import { jsonResponse } from "./json-response.js";
import { FIELD_ISSUE_SCHEMA } from "./v1-contract.js";

/** Version string reported in v2 `meta.api_version`. */
export const V2_API_VERSION = "2.0-beta";

/**
 * The decimal numbers 1 to MAX_STORED_ID (2147483647) and nothing else, as a regular expression without anchors.
 * A v2 id is a string; a longer one names nothing, and PostgreSQL refuses it as out of range for integer (a 500
 * where the field should be named), so the schema itself says where ids end.
 */
export const STORED_ID_DIGITS =
  "(?:[1-9][0-9]{0,8}|1[0-9]{9}|20[0-9]{8}|21[0-3][0-9]{7}|214[0-6][0-9]{6}|2147[0-3][0-9]{5}|21474[0-7][0-9]{4}" +
  "|214748[0-2][0-9]{3}|2147483[0-5][0-9]{2}|21474836[0-3][0-9]|214748364[0-7])";

/** An id in a v2 request: v2 ids are strings (spec 2.5); numbers are accepted too; both end at MAX_STORED_ID. */
export const V2_ID_INPUT = {
  type: ["string", "integer"],
  pattern: `^${STORED_ID_DIGITS}$`,
  minimum: 1,
  maximum: MAX_STORED_ID,
} as const;

export interface V2RequestContext {
  requestId: string;
  now: Date;
}

export function v2Meta(ctx: V2RequestContext, withVersion = true): Record<string, string> {
  return withVersion
    ? { timestamp: ctx.now.toISOString(), request_id: ctx.requestId, api_version: V2_API_VERSION }
    : { timestamp: ctx.now.toISOString(), request_id: ctx.requestId };
}

/** v2 identifiers are strings (spec 2.5), so id-valued details (`…_id`, `…_ref`) are too, whatever the domain carried. */
function v2Detail(key: string, value: unknown): unknown {
  return (key.endsWith("_id") || key.endsWith("_ref")) && typeof value === "number" ? String(value) : value;
}

/** The v2 error body (v2Error). */
export const V2_ERROR_SCHEMA = replyObject(
  {
    error: replyObject({
      code: { type: "string", enum: [...errorCodes()], description: "The stable error code (docs/errors.md)" },
      message: plainText,
      details: {
        ...anyObject,
        description: "What the error names (ids as strings); `errors` lists field issues",
        properties: { errors: { type: "array", items: FIELD_ISSUE_SCHEMA } },
      },
    }),
    meta: replyObject({ timestamp: dateTime, request_id: plainText }, { title: "V2ErrorMeta" }),
  },
  {
    title: "V2Error",
    examples: [
      {
        error: {
          code: "PATIENT_NOT_FOUND",
          message: "Patient 999 not found",
          details: { patient_id: "999" },
        },
        meta: { timestamp: "2025-03-14T15:00:00.000Z", request_id: "req_3f9a2c1e-5b7d-4e8a-9c0f-1a2b3c4d5e6f" },
      },
    ],
  },
);

/** The v2 `meta` of lists: when, which request, which API version. */
export const V2_META_SCHEMA = replyObject(
  { timestamp: dateTime, request_id: plainText, api_version: { type: "string", enum: [V2_API_VERSION] } },
  { title: "V2Meta" },
);

/** The v2 `pagination` object (v2Pagination). */
export const V2_PAGINATION_SCHEMA = replyObject(
  {
    current_page: integer,
    total_pages: integer,
    total_count: {
      type: "integer",
      description:
        "Matches in all pages. For a `search`, exact up to the search count limit (default 1,000); above it, the limit, with total_count_exact false.",
    },
    total_count_exact: {
      type: "boolean",
      description: "False when total_count is a lower bound (a search with more matches than the count limit).",
    },
    per_page: integer,
    has_next: boolean,
    has_previous: boolean,
    next_page: integerOrNull,
    previous_page: integerOrNull,
  },
  { title: "V2Pagination" },
);

/**
 * `{error: {code, message, details}, meta: {timestamp, request_id}}` (spec 7.5). Field issues appear as details.errors.
 * `status` is the code's entry of V2_STATUS_MAP (http-modules.ts).
 */
export function v2Error(
  error: DomainError,
  status: number,
  ctx: V2RequestContext,
  names?: FieldNames,
  headers: Record<string, string> = {},
): Response {
  const { message, issues, details: bounded } = describeForWire(error, names);
  const details: Record<string, unknown> = Object.fromEntries(
    Object.entries(bounded).map(([k, v]) => [k, v2Detail(k, v)]),
  );
  if (issues?.length) details.errors = issues;
  return jsonResponse(status, { error: { code: error.code, message, details }, meta: v2Meta(ctx, false) }, headers);
}

/**
 * The v2 `pagination` object (spec 4.6). With a bounded total (`totalExact` false), pages beyond it still exist:
 * never report fewer pages than the ones known.
 */
export function v2Pagination(p: {
  page: number;
  perPage: number;
  total: number;
  totalExact: boolean;
  hasNext: boolean;
  returned: number;
}) {
  const pagesSeen = p.returned > 0 ? p.page + (p.hasNext ? 1 : 0) : 0;
  const totalPages = Math.max(Math.ceil(p.total / p.perPage), pagesSeen);
  const hasPrevious = p.page > 1;
  return {
    current_page: p.page,
    total_pages: totalPages,
    total_count: p.total,
    total_count_exact: p.totalExact,
    per_page: p.perPage,
    has_next: p.hasNext,
    has_previous: hasPrevious,
    next_page: p.hasNext ? p.page + 1 : null,
    previous_page: hasPrevious ? Math.min(p.page - 1, Math.max(totalPages, 1)) : null,
  };
}

/** The fields a `fields=a,b` parameter names, or undefined for all. */
export const v2FieldList = (raw: string | undefined) => (raw ? [...new Set(raw.split(","))] : undefined);

/** `view` with only `id` and the named fields (all when none are named). */
export function v2Project(
  view: Record<string, unknown>,
  fields: readonly string[] | undefined,
): Record<string, unknown> {
  if (!fields) return view;
  const keep = new Set(["id", ...fields]);
  return Object.fromEntries(Object.entries(view).filter(([k]) => keep.has(k)));
}

/** The body of a v2 list whose total is exact: `data` (with `fields` applied), `pagination`, `meta`. */
export function v2ListBody(
  ctx: V2RequestContext,
  page: { page: number; perPage: number; total: number },
  views: Array<Record<string, unknown>>,
  fields: string | undefined,
) {
  const keep = v2FieldList(fields);
  return {
    data: views.map((v) => v2Project(v, keep)),
    pagination: v2Pagination({
      ...page,
      totalExact: true,
      hasNext: page.page * page.perPage < page.total,
      returned: views.length,
    }),
    meta: v2Meta(ctx),
  };
}

/** The OpenAPI schema of a v2 list of `item`: data, pagination and meta are always sent. */
export const v2ListSchema = (item: JsonSchema): JsonSchema =>
  replyObject({ data: { type: "array", items: item }, pagination: V2_PAGINATION_SCHEMA, meta: V2_META_SCHEMA });

/** The `fields` query parameter of a resource whose fields are `names`: a comma-separated list of them. */
export const v2FieldsParameter = <const N extends readonly string[]>(names: N) =>
  ({
    type: "string",
    pattern: `^(${names.join("|")})(,(${names.join("|")}))*$`,
    description: "A comma-separated list of fields to return (id is always included)",
  }) as const;

/** The `page` and `per_page` query parameters of a v2 list. */
export const v2PageParameters = <const D extends number, const M extends number>(defaultPerPage: D, maxPerPage: M) =>
  ({
    page: { type: "integer", minimum: 1, default: 1, description: "1-based page number" },
    per_page: { type: "integer", minimum: 1, maximum: maxPerPage, default: defaultPerPage },
  }) as const;
