import type { components } from "./generated/openapi.js";

/** A v1 error body: `{code, data: null, message, error_code, …}` (docs/errors.md). */
export type V1Error = components["schemas"]["V1Error"];
/** A v2 error body: `{error: {code, message, details}, meta}`. */
export type V2Error = components["schemas"]["V2Error"];

/**
 * The outcome of a call, as a value rather than an exception: `ok` says which side holds. `error` is the server's
 * error body in the contract's shape, or null when the answer was not one (a proxy's 502 page, say).
 */
export type ApiResult<Data, Err> =
  | { ok: true; data: Data; status: number; response: Response }
  | { ok: false; error: Err | null; status: number; response: Response };

/**
 * v1: `data` is the envelope's `data` and `code` its code (2000, or 2301 "already exists"). The v1 routes that answer
 * without an envelope (webhooks, notifications) give their body as `data` and no `code`.
 */
export type V1Result<Data, Err = V1Error> =
  | { ok: true; data: Data; code: number | undefined; message: string | undefined; status: number; response: Response }
  | { ok: false; error: Err | null; status: number; response: Response };

export type V2Result<Data, Err = V2Error> = ApiResult<Data, Err>;

/** What openapi-fetch resolves to: the parsed body of a 2xx answer in `data`, of any other in `error`. */
export interface RawResult {
  data?: unknown;
  error?: unknown;
  response: Response;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === "object" && value !== null;

/**
 * v1 answers in an envelope, and spec 7.1 delivers some errors with HTTP 200 (SOAP note creation): the envelope's
 * code decides; codes below 4000 are successes. A body without an envelope is taken as it is.
 */
export function toV1Result<Data, Err = V1Error>(raw: RawResult): V1Result<Data, Err> {
  const { response } = raw;
  const body = raw.data ?? raw.error;
  const enveloped = isObject(body) && typeof body.code === "number" && "message" in body;
  if (enveloped) {
    if (response.ok && (body.code as number) < 4000)
      return {
        ok: true,
        data: body.data as Data,
        code: body.code as number,
        message: String(body.message),
        status: response.status,
        response,
      };
    return { ok: false, error: body as Err, status: response.status, response };
  }
  if (response.ok)
    return { ok: true, data: body as Data, code: undefined, message: undefined, status: response.status, response };
  return { ok: false, error: isObject(body) ? (body as Err) : null, status: response.status, response };
}

export function toV2Result<Data, Err>(raw: RawResult): V2Result<Data, Err> {
  const { response } = raw;
  if (response.ok) return { ok: true, data: raw.data as Data, status: response.status, response };
  const body = raw.error;
  const shaped = isObject(body) && isObject(body.error) && typeof body.error.code === "string";
  return { ok: false, error: shaped ? (body as Err) : null, status: response.status, response };
}
