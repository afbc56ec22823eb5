import { createServer, type Server } from "node:http";
import { H3 } from "h3";
import { toNodeHandler } from "h3/node";

export type FetchHandler = (request: Request) => Promise<Response>;

export interface H3HostOptions {
  /** Mount the API under this path prefix (e.g. "/emr"); the handler sees paths without it. Default: none. */
  prefix?: string;
}

function withoutPrefix(request: Request, prefix: string): Request {
  if (!prefix) return request;
  const url = new URL(request.url);
  url.pathname = url.pathname.slice(prefix.length) || "/";
  // Rebuild the request with the shorter URL; body, headers and method are carried over unread.
  return new Request(url, { method: request.method, headers: request.headers, body: request.body, duplex: "half" } as RequestInit);
}

/**
 * The h3 v2 binding: one catch-all route that hands h3's web Request to the
 * OpenPractice fetch handler and returns its Response untouched.
 */
export function createH3App(handler: FetchHandler, options: H3HostOptions = {}): H3 {
  const prefix = (options.prefix ?? "").replace(/\/+$/, "");
  const app = new H3();
  const forward = (event: { req: Request }) => handler(withoutPrefix(event.req, prefix));
  app.all(prefix || "/", forward);
  app.all(`${prefix}/**`, forward);
  return app;
}

/** A node:http server running the h3 app (the runtime's default host). */
export function createH3NodeServer(handler: FetchHandler, options: H3HostOptions = {}): Server {
  return createServer(toNodeHandler(createH3App(handler, options)));
}
