import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { isIP, type LookupFunction } from "node:net";
import { classifyOutboundAddress, type AddressVerdict } from "@openpractice/core";

/** Where outbound requests (webhooks, push messages) may go. */
export interface OutboundPolicy {
  /** Development: loopback and private addresses are allowed so local receivers work. */
  allowPrivate: boolean;
  /** Hosts (names or IP addresses) allowed whatever they resolve to. */
  allowedHosts: readonly string[];
}

export class OutboundAddressError extends Error {
  override readonly name = "OutboundAddressError";
}

/** The policy's address check: public unicast only, plus loopback and private ranges in development (classifyOutboundAddress). */
function addressCheck(policy: OutboundPolicy): (address: string) => AddressVerdict {
  return (address) => classifyOutboundAddress(address, { allowPrivate: policy.allowPrivate });
}

/**
 * A DNS lookup that refuses forbidden addresses at connect time, after
 * resolution, so a name that resolves to 127.0.0.1 (or changes its answer
 * between a check and the connection) cannot reach the inside.
 */
export function guardedLookup(policy: OutboundPolicy, check = addressCheck(policy)): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 4);
      const allowedHost = policy.allowedHosts.includes(hostname.toLowerCase());
      const verdicts = addresses.map((a) => ({ ...a, verdict: check(a.address) }));
      const usable = allowedHost
        ? addresses
        : verdicts.filter((a) => a.verdict.allowed).map(({ address, family }) => ({ address, family }));
      if (usable.length === 0) {
        const seen = verdicts.map((a) => `${a.address} ${a.verdict.range}`).join(", ");
        return callback(
          new OutboundAddressError(
            `refused: ${hostname} resolves only to addresses that are not public unicast (${seen})`,
          ),
          "",
          4,
        );
      }
      if ((options as { all?: boolean }).all)
        return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
      callback(null, usable[0]!.address, usable[0]!.family);
    });
  };
}

/** An IP literal skips DNS, so the policy judges it before connecting: the refusal's words, or undefined. */
function literalRefusal(policy: OutboundPolicy, check: (address: string) => AddressVerdict, target: URL) {
  const host = target.hostname.replace(/^\[|\]$/g, "");
  const literal = isIP(host) && !policy.allowedHosts.includes(target.hostname) ? check(host) : null;
  return literal && !literal.allowed
    ? `refused: ${target.hostname} is not a public unicast address (${literal.range})`
    : undefined;
}

export interface OutboundRequest {
  url: string;
  headers: Record<string, string | number>;
  body: string | Uint8Array;
  timeoutMs: number;
  /** Response bytes kept for the caller. */
  excerptBytes: number;
}

export interface OutboundResponse {
  statusCode: number | null;
  headers: IncomingHttpHeaders;
  excerpt: string | null;
  error: string | null;
  /** The policy refused the address before any connection (sending again cannot help). */
  refused: boolean;
  durationMs: number;
}

/**
 * One POST over node:http(s) under the policy: a hard timeout, redirects not
 * followed (a 3xx is the answer), the response read up to `excerptBytes`,
 * and the address checked on every connection. Never rejects: failures come
 * back as `error` with a null status.
 */
export function createOutboundPost(policy: OutboundPolicy): (request: OutboundRequest) => Promise<OutboundResponse> {
  const check = addressCheck(policy);
  const lookup = guardedLookup(policy, check);
  return ({ url, headers, body, timeoutMs, excerptBytes }) => {
    const started = performance.now();
    const target = new URL(url);
    return new Promise<OutboundResponse>((resolve) => {
      const done = (
        r: Omit<OutboundResponse, "durationMs" | "refused" | "headers"> &
          Partial<Pick<OutboundResponse, "refused" | "headers">>,
      ) => resolve({ headers: {}, refused: false, ...r, durationMs: Math.round(performance.now() - started) });
      const refusal = literalRefusal(policy, check, target);
      if (refusal) return done({ statusCode: null, error: refusal, excerpt: null, refused: true });
      const send = target.protocol === "https:" ? httpsRequest : httpRequest;
      const req = send(
        target,
        {
          method: "POST",
          headers: { ...headers, "content-length": Buffer.byteLength(body) },
          lookup,
          signal: AbortSignal.timeout(timeoutMs),
        },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            if (size < excerptBytes) chunks.push(chunk.subarray(0, excerptBytes - size));
            size += chunk.length;
          });
          const excerpt = () => Buffer.concat(chunks).toString("utf8");
          res.on("end", () =>
            done({ statusCode: res.statusCode ?? null, headers: res.headers, error: null, excerpt: excerpt() }),
          );
          res.on("error", (e) =>
            done({ statusCode: res.statusCode ?? null, headers: res.headers, error: e.message, excerpt: excerpt() }),
          );
        },
      );
      req.on("error", (e: Error) =>
        done({
          statusCode: null,
          error: e.name === "AbortError" || e.name === "TimeoutError" ? `timeout after ${timeoutMs} ms` : e.message,
          excerpt: null,
          refused: e instanceof OutboundAddressError,
        }),
      );
      req.end(body);
    });
  };
}

/** The most bytes of a fetched document kept (a JWK Set is a few kilobytes). */
const FETCH_LIMIT_BYTES = 256 * 1024;

/**
 * A fetch for small documents (an API client's JWK Set) under the policy: GET only, redirects not followed, the
 * address checked on every connection as for webhooks, at most 256 KiB read. Rejects when refused or failed.
 */
export function createOutboundFetch(policy: OutboundPolicy): (url: string, init: RequestInit) => Promise<Response> {
  const check = addressCheck(policy);
  const lookup = guardedLookup(policy, check);
  return (url, init) =>
    new Promise<Response>((resolve, reject) => {
      const target = new URL(url);
      const refusal = literalRefusal(policy, check, target);
      if (refusal) return reject(new OutboundAddressError(refusal));
      const send = target.protocol === "https:" ? httpsRequest : httpRequest;
      const headers = Object.fromEntries(new Headers(init.headers ?? {}).entries());
      const req = send(
        target,
        { method: "GET", headers, lookup, signal: init.signal ?? AbortSignal.timeout(5000) },
        (res) => {
          const chunks: Buffer[] = [];
          let size = 0;
          res.on("data", (chunk: Buffer) => {
            size += chunk.length;
            if (size > FETCH_LIMIT_BYTES) {
              res.destroy();
              reject(new Error(`the document exceeds ${FETCH_LIMIT_BYTES} bytes`));
            } else chunks.push(chunk);
          });
          res.on("end", () => {
            const responseHeaders = new Headers();
            for (const [name, value] of Object.entries(res.headers))
              if (typeof value === "string") responseHeaders.set(name, value);
            resolve(new Response(Buffer.concat(chunks), { status: res.statusCode ?? 500, headers: responseHeaders }));
          });
          res.on("error", reject);
        },
      );
      req.on("error", reject);
      req.end();
    });
}
