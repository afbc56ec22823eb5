import type { DomainError } from "@openpractice/core";
import { describeForWire, type FieldNames } from "./field-names.js";
import { jsonResponse } from "./json-response.js";

/** Version string reported in v2 `meta.api_version`. */
export const V2_API_VERSION = "2.0-beta";

export interface V2RequestContext {
  requestId: string;
  now: Date;
}

export function v2Meta(ctx: V2RequestContext, withVersion = true): Record<string, string> {
  return withVersion
    ? { timestamp: ctx.now.toISOString(), request_id: ctx.requestId, api_version: V2_API_VERSION }
    : { timestamp: ctx.now.toISOString(), request_id: ctx.requestId };
}

/** v2 identifiers are strings (spec 2.5), so id-valued details are too, whatever the domain carried. */
function v2Detail(key: string, value: unknown): unknown {
  return key.endsWith("_id") && typeof value === "number" ? String(value) : value;
}

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
