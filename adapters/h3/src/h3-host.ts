import { createServer, type Server } from "node:http";
import { getRequestIP, H3, type H3Event } from "h3";
import { toNodeHandler } from "h3/node";
import type { FetchHandler } from "@openpractice/http";

/** The handler type is declared once, in @openpractice/http; any function of that shape can be hosted. */
export type { FetchHandler } from "@openpractice/http";

export interface H3HostOptions {
  /** Mount the API under this path prefix (e.g. "/emr"); the handler sees paths without it. Default: none. */
  prefix?: string;
  /** Node's limit on a request's header bytes (createServer's maxHeaderSize); default Node's 16 KiB. */
  maxHeaderSize?: number;
}

function withoutPrefix(request: Request, prefix: string): Request {
  if (!prefix) return request;
  const url = new URL(request.url);
  url.pathname = url.pathname.slice(prefix.length) || "/";
  // The handler learns its mount path from X-Forwarded-Prefix (for Location headers); ours replaces any sent.
  const headers = new Headers(request.headers);
  headers.set("x-forwarded-prefix", prefix);
  // Rebuild the request with the shorter URL; body and method are carried over unread.
  return new Request(url, { method: request.method, headers, body: request.body, duplex: "half" } as RequestInit);
}

/** JSON and text replies are small and already in memory; anything else (files) keeps streaming. */
const BUFFERED_TYPES = /^(application\/([\w.+-]+\+)?json|text\/)/i;

/**
 * A web Response handed back to h3's Node adapter is streamed through a
 * ReadableStream, which costs several milliseconds per request; a buffered
 * body is written in one go. Status and headers are carried over unchanged.
 */
async function toH3Reply(event: H3Event, response: Response): Promise<Response | Uint8Array> {
  if (!response.body || !BUFFERED_TYPES.test(response.headers.get("content-type") ?? "")) return response;
  event.res.status = response.status;
  for (const [name, value] of response.headers) if (name !== "set-cookie") event.res.headers.set(name, value);
  for (const cookie of response.headers.getSetCookie()) event.res.headers.append("set-cookie", cookie);
  return new Uint8Array(await response.arrayBuffer());
}

/**
 * The h3 v2 binding: one catch-all route that hands h3's web Request to the
 * OpenPractice fetch handler and returns its Response (status, headers, body).
 */
export function createH3App(handler: FetchHandler, options: H3HostOptions = {}): H3 {
  const prefix = (options.prefix ?? "").replace(/\/+$/, "");
  // A path with malformed percent-encoding (e.g. /apis/v1/patient/%zz) goes to the handler like any other,
  // which answers it in the contract's shape; h3 alone would answer a bare {"status":400}.
  const app = new H3({ allowMalformedURL: true });
  // The socket's peer address (X-Forwarded-For is not trusted: any client can send it).
  const forward = async (event: H3Event) =>
    toH3Reply(event, await handler(withoutPrefix(event.req, prefix), { remoteAddress: getRequestIP(event) }));
  app.all(prefix || "/", forward);
  app.all(`${prefix}/**`, forward);
  return app;
}

/** A node:http server running the h3 app (the runtime's default host). */
export function createH3NodeServer(handler: FetchHandler, options: H3HostOptions = {}): Server {
  return createServer({ maxHeaderSize: options.maxHeaderSize }, toNodeHandler(createH3App(handler, options)));
}
