import { lookup as dnsLookup, type LookupAddress } from "node:dns";
import { request as httpRequest, type IncomingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { BlockList, isIP, type LookupFunction } from "node:net";

/** Addresses a production deployment never posts to: loopback, private, link-local (cloud metadata), CGNAT, unspecified. */
function forbiddenRanges(allowLoopback: boolean): BlockList {
  const list = new BlockList();
  if (!allowLoopback) {
    list.addSubnet("127.0.0.0", 8, "ipv4");
    list.addAddress("::1", "ipv6");
    list.addSubnet("10.0.0.0", 8, "ipv4");
    list.addSubnet("172.16.0.0", 12, "ipv4");
    list.addSubnet("192.168.0.0", 16, "ipv4");
    list.addSubnet("100.64.0.0", 10, "ipv4");
    list.addSubnet("fc00::", 7, "ipv6");
  }
  list.addSubnet("0.0.0.0", 8, "ipv4");
  list.addSubnet("169.254.0.0", 16, "ipv4");
  list.addSubnet("fe80::", 10, "ipv6");
  list.addAddress("::", "ipv6");
  return list;
}

/** The IPv4 address inside an IPv4-mapped IPv6 address (::ffff:10.0.0.1), so mapped forms cannot sneak past. */
const unmapped = (address: string) => address.replace(/^::ffff:(\d+\.\d+\.\d+\.\d+)$/i, "$1");

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

/** The policy's address check; the block list is built once per policy, not per connection. */
function addressCheck(policy: OutboundPolicy): (address: string) => boolean {
  const forbidden = forbiddenRanges(policy.allowPrivate);
  return (address) => {
    const ip = unmapped(address);
    return !forbidden.check(ip, isIP(ip) === 6 ? "ipv6" : "ipv4");
  };
}

/**
 * A DNS lookup that refuses forbidden addresses at connect time, after
 * resolution, so a name that resolves to 127.0.0.1 (or changes its answer
 * between a check and the connection) cannot reach the inside.
 */
export function guardedLookup(policy: OutboundPolicy, isAllowed = addressCheck(policy)): LookupFunction {
  return (hostname, options, callback) => {
    dnsLookup(hostname, { ...options, all: true }, (error, addresses: LookupAddress[]) => {
      if (error) return callback(error, "", 4);
      const allowedHost = policy.allowedHosts.includes(hostname.toLowerCase());
      const usable = allowedHost ? addresses : addresses.filter((a) => isAllowed(a.address));
      if (usable.length === 0) return callback(new OutboundAddressError(`refused: ${hostname} resolves only to loopback, private or link-local addresses`), "", 4);
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: LookupAddress[]) => void)(null, usable);
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
  const isAllowed = addressCheck(policy);
  const lookup = guardedLookup(policy, isAllowed);
  return ({ url, headers, body, timeoutMs, excerptBytes }) => {
    const started = performance.now();
    const target = new URL(url);
    const host = target.hostname.replace(/^\[|\]$/g, "");
    return new Promise<OutboundResponse>((resolve) => {
      const done = (r: Omit<OutboundResponse, "durationMs" | "refused" | "headers"> & Partial<Pick<OutboundResponse, "refused" | "headers">>) =>
        resolve({ headers: {}, refused: false, ...r, durationMs: Math.round(performance.now() - started) });
      // An IP literal skips DNS, so it is checked here.
      if (isIP(host) && !policy.allowedHosts.includes(target.hostname) && !isAllowed(host)) {
        return done({ statusCode: null, error: `refused: ${target.hostname} is a loopback, private or link-local address`, excerpt: null, refused: true });
      }
      const send = target.protocol === "https:" ? httpsRequest : httpRequest;
      const req = send(target, { method: "POST", headers: { ...headers, "content-length": Buffer.byteLength(body) }, lookup, signal: AbortSignal.timeout(timeoutMs) }, (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on("data", (chunk: Buffer) => {
          if (size < excerptBytes) chunks.push(chunk.subarray(0, excerptBytes - size));
          size += chunk.length;
        });
        const excerpt = () => Buffer.concat(chunks).toString("utf8");
        res.on("end", () => done({ statusCode: res.statusCode ?? null, headers: res.headers, error: null, excerpt: excerpt() }));
        res.on("error", (e) => done({ statusCode: res.statusCode ?? null, headers: res.headers, error: e.message, excerpt: excerpt() }));
      });
      req.on("error", (e: Error) =>
        done({ statusCode: null, error: e.name === "AbortError" || e.name === "TimeoutError" ? `timeout after ${timeoutMs} ms` : e.message, excerpt: null, refused: e instanceof OutboundAddressError }),
      );
      req.end(body);
    });
  };
}
