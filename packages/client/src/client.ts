import createFetchClient, {
  type Client,
  type FetchResponse,
  type MaybeOptionalInit,
  type Middleware,
} from "openapi-fetch";
import type { HttpMethod, PathsWithMethod, RequiredKeysOf } from "openapi-typescript-helpers";
import { IDEMPOTENT_OPERATIONS } from "./generated/idempotent-operations.js";
import type { paths } from "./generated/openapi.js";
import {
  type RawResult,
  toV1Result,
  toV2Result,
  type V1Error,
  type V1Result,
  type V2Error,
  type V2Result,
} from "./results.js";
import { type RetryOptions, retryingFetch } from "./retry.js";

type Media = `${string}/${string}`;
/** A paths type as openapi-typescript writes it: per path, an operation (or never) per method. */
type PathsOf<Paths> = { [P in keyof Paths]: Partial<Record<HttpMethod, unknown>> };
/** What openapi-fetch answers for one operation (its types want an object type; an operation is one). */
type ResponseOf<Operation, Init> =
  Operation extends Record<string | number, unknown> ? FetchResponse<Operation, Init, Media> : never;

export interface OpenPracticeClientOptions {
  /**
   * Where the API is served, with the path the host mounted it under, e.g. `https://emr.example.com/emr`
   * (the `servers` entry of the document such a host serves). Paths are appended to it.
   */
  baseUrl: string;
  /** A bearer token, or a function giving one for each request (for instance an OAuth token your code caches). */
  token?: string | (() => string | Promise<string>);
  /** Retry on 429 honouring `Retry-After` (default: 3 attempts, waits up to 60 s); false sends once. */
  retry?: RetryOptions | false;
  /** Makes the idempotency key an operation that takes one gets when the caller gives none; default a random UUID. */
  idempotencyKey?: () => string;
  /** Headers on every request. */
  headers?: Record<string, string>;
  /** The fetch to send with (default globalThis.fetch). */
  fetch?: (request: Request) => Promise<Response>;
}

// The second argument of a call: optional when the operation needs no parameters and no body (as openapi-fetch's).
type InitParam<Init> =
  RequiredKeysOf<Init> extends never ? [(Init & { [key: string]: unknown })?] : [Init & { [key: string]: unknown }];
type DataOf<R> = R extends { data: infer T } ? T : never;
type ErrorOf<R> = R extends { error: infer E } ? E : never;
/** The envelope's data, or the body itself on the v1 routes that answer without an envelope. */
type EnvelopeData<T> = T extends { code: number; message: string; data: infer D } ? D : T;
type ErrorOr<R, Default> = [ErrorOf<R>] extends [never] ? Default : ErrorOf<R>;

/** A v1 call: the envelope unwrapped (`data` is the envelope's data), errors as a value. */
export type V1Method<Paths extends PathsOf<Paths>, M extends HttpMethod> = <
  Path extends PathsWithMethod<Paths, M>,
  Init extends MaybeOptionalInit<Paths[Path], M>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<
  V1Result<EnvelopeData<DataOf<ResponseOf<Paths[Path][M], Init>>>, ErrorOr<ResponseOf<Paths[Path][M], Init>, V1Error>>
>;

/** A v2 call: the resource, or the documented error body, as a value. */
export type V2Method<Paths extends PathsOf<Paths>, M extends HttpMethod> = <
  Path extends PathsWithMethod<Paths, M>,
  Init extends MaybeOptionalInit<Paths[Path], M>,
>(
  url: Path,
  ...init: InitParam<Init>
) => Promise<V2Result<DataOf<ResponseOf<Paths[Path][M], Init>>, ErrorOr<ResponseOf<Paths[Path][M], Init>, V2Error>>>;

export interface OpenPracticeClient {
  /** The openapi-fetch client itself: typed from the document, answers as the server sent them (v1 envelopes too). */
  api: Client<paths, Media>;
  /** The v1 paths (`/apis/...`), envelope unwrapped. */
  v1: {
    GET: V1Method<paths, "get">;
    POST: V1Method<paths, "post">;
    PATCH: V1Method<paths, "patch">;
    DELETE: V1Method<paths, "delete">;
  };
  /** The v2 paths (`/v2/...`, and the token and system routes). */
  v2: {
    GET: V2Method<paths, "get">;
    POST: V2Method<paths, "post">;
    PATCH: V2Method<paths, "patch">;
    DELETE: V2Method<paths, "delete">;
  };
}

/** Authorization: Bearer on every request that has none yet. */
function bearer(token: NonNullable<OpenPracticeClientOptions["token"]>): Middleware {
  return {
    async onRequest({ request }) {
      if (request.headers.has("authorization")) return undefined;
      request.headers.set("authorization", `Bearer ${typeof token === "string" ? token : await token()}`);
      return request;
    },
  };
}

/**
 * Operations whose body takes `idempotency_key` (POST /apis/v1/notifications/deliver) get one when the caller sent
 * none, so a retried request (after a 429, or by the caller after a lost answer with the same body) is not a second
 * notification.
 */
function idempotency(makeKey: () => string): Middleware {
  return {
    async onRequest({ request, schemaPath }) {
      if (!IDEMPOTENT_OPERATIONS.has(`${request.method} ${schemaPath}`)) return undefined;
      if (!(request.headers.get("content-type") ?? "").includes("json")) return undefined;
      const body: unknown = await request
        .clone()
        .json()
        .catch(() => undefined);
      if (typeof body !== "object" || body === null || Array.isArray(body) || "idempotency_key" in body)
        return undefined;
      return new Request(request, { body: JSON.stringify({ ...body, idempotency_key: makeKey() }) });
    },
  };
}

export function createOpenPracticeClient(options: OpenPracticeClientOptions): OpenPracticeClient {
  const send = options.fetch ?? ((request: Request) => globalThis.fetch(request));
  const api = createFetchClient<paths, Media>({
    baseUrl: options.baseUrl.replace(/\/+$/, ""),
    fetch: options.retry === false ? send : retryingFetch(send, options.retry),
    ...(options.headers ? { headers: options.headers } : {}),
  });
  if (options.token !== undefined) api.use(bearer(options.token));
  api.use(idempotency(options.idempotencyKey ?? (() => crypto.randomUUID())));
  // The typed wrappers call the same client; the result types come from V1Method / V2Method.
  const call = (method: string) => (url: string, init?: unknown) =>
    (api as unknown as Record<string, (u: string, i?: unknown) => Promise<RawResult>>)[method]!(url, init);
  const v1 = (method: string) => async (url: string, init?: unknown) => toV1Result(await call(method)(url, init));
  const v2 = (method: string) => async (url: string, init?: unknown) => toV2Result(await call(method)(url, init));
  return {
    api,
    v1: { GET: v1("GET"), POST: v1("POST"), PATCH: v1("PATCH"), DELETE: v1("DELETE") } as OpenPracticeClient["v1"],
    v2: { GET: v2("GET"), POST: v2("POST"), PATCH: v2("PATCH"), DELETE: v2("DELETE") } as OpenPracticeClient["v2"],
  };
}
