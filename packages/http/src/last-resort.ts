import type { Contract } from "./route.js";
import type { RequestHooks, UnexpectedErrorHook } from "./request-hooks.js";

/** What the handler had learnt about a request when something failed outside the normal error path. */
export interface LastResortContext {
  requestId?: string;
  contract?: Exclude<Contract, "system">;
  route?: string;
  started?: number;
}

const MESSAGE = "Internal error; the request id identifies it in the server log";

/** A short description of anything thrown, read without trusting it (getters, proxies and toString may throw). */
export function describeThrown(error: unknown): { name: string; message: string; stack?: string | undefined } {
  const read = (key: "name" | "message" | "stack") => {
    try {
      const value = (error as Record<string, unknown>)?.[key];
      return typeof value === "string" ? value.slice(0, 4000) : undefined;
    } catch {
      return undefined;
    }
  };
  return {
    name: read("name") ?? (error === null ? "null" : typeof error),
    message: read("message") ?? "(a thrown value without a readable message)",
    stack: read("stack"),
  };
}

/** One JSON line on stderr in the runtime log's shape (level, time, request id, route, err, msg); never throws. */
function writeErrorLine(
  error: unknown,
  entry: { requestId: string; method: string; route: string; organisationId?: number | undefined },
  msg: string,
  withStack: boolean,
): void {
  try {
    const { name, message, stack } = describeThrown(error);
    console.error(
      JSON.stringify({
        level: "error",
        time: new Date().toISOString(),
        request_id: entry.requestId,
        method: entry.method,
        route: entry.route,
        organisation_id: entry.organisationId,
        err: withStack ? { name, message, stack } : { name, message },
        msg,
      }),
    );
  } catch {
    // nothing is left to report with
  }
}

/**
 * onUnexpectedError when the host passes none: each defect as one JSON line on stderr, with its stack, so a 500
 * is never silent. A host with a logger passes its own (the runtime logs through pino).
 */
export const reportUnexpectedOnStderr: UnexpectedErrorHook = (error, entry) =>
  writeErrorLine(error, entry, "unexpected error", true);

/**
 * Reports a failure of the error path or of a host hook: to the host's
 * onUnexpectedError, and when that throws too, as one JSON line on stderr.
 */
export function lastResortReport(
  error: unknown,
  options: Pick<RequestHooks, "onUnexpectedError">,
  entry: { requestId: string; method: string; route: string },
): void {
  try {
    options.onUnexpectedError?.(error, entry);
    return;
  } catch {
    // the host's logger failed as well: fall through to the plain line
  }
  writeErrorLine(error, entry, "unexpected error in the error path", false);
}

/**
 * The reply when rendering an error failed: the contract's 500 body (v1
 * envelope or v2 {error, meta}) built from fixed text and the request id, so
 * it cannot fail in turn. The host's hooks are told, each guarded.
 */
export function lastResortResponse(
  failure: unknown,
  request: Request,
  seen: LastResortContext,
  options: RequestHooks,
): Response {
  let requestId = seen.requestId;
  if (!requestId) {
    try {
      requestId = `req_${crypto.randomUUID()}`;
    } catch {
      requestId = "req_unknown";
    }
  }
  let method = "";
  try {
    method = request.method;
  } catch {
    // an unreadable request still gets its reply
  }
  const route = seen.route ?? "(unmatched)";
  lastResortReport(failure, options, { requestId, method, route });
  try {
    options.onRequestComplete?.({
      requestId,
      method,
      route,
      status: 500,
      durationMs: seen.started === undefined ? 0 : Math.round((performance.now() - seen.started) * 100) / 100,
      errorCode: "INTERNAL_ERROR",
    });
  } catch {
    // the reply matters more than its log line
  }
  const id = JSON.stringify(requestId);
  const body =
    seen.contract === "v2"
      ? `{"error":{"code":"INTERNAL_ERROR","message":"${MESSAGE}","details":{}},"meta":{"timestamp":"${new Date().toISOString()}","request_id":${id}}}`
      : seen.contract === "fhir"
        ? `{"resourceType":"OperationOutcome","issue":[{"severity":"fatal","code":"exception","details":{"text":"INTERNAL_ERROR"},"diagnostics":"${MESSAGE}"}]}`
        : `{"code":5000,"data":null,"message":"${MESSAGE}","error_code":"INTERNAL_ERROR"}`;
  const type = seen.contract === "fhir" ? "application/fhir+json; charset=utf-8" : "application/json; charset=utf-8";
  return new Response(body, { status: 500, headers: { "content-type": type, "x-request-id": requestId } });
}
