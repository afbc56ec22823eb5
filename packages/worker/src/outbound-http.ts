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
    const host = target.hostname.replace(/^\[|\]$/g, "");
    return new Promise<OutboundResponse>((resolve) => {
      const done = (
        r: Omit<OutboundResponse, "durationMs" | "refused" | "headers"> &
          Partial<Pick<OutboundResponse, "refused" | "headers">>,
      ) => resolve({ headers: {}, refused: false, ...r, durationMs: Math.round(performance.now() - started) });
      // An IP literal skips DNS, so it is checked here.
      const literal = isIP(host) && !policy.allowedHosts.includes(target.hostname) ? check(host) : null;
      if (literal && !literal.allowed) {
        return done({
          statusCode: null,
          error: `refused: ${target.hostname} is not a public unicast address (${literal.range})`,
          excerpt: null,
          refused: true,
        });
      }
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
