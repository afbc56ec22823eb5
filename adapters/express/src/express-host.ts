import { Readable } from "node:stream";
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import type { FetchHandler } from "@openpractice/http";

/** The handler type is declared once, in @openpractice/http; any function of that shape can be hosted. */
export type { FetchHandler } from "@openpractice/http";

/** Express request → web Request. `req.url` is already relative to the mount path. */
function toWebRequest(req: ExpressRequest): Request {
  const url = new URL(req.url, `${req.protocol}://${req.get("host") ?? "localhost"}`);
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (Array.isArray(value)) for (const v of value) headers.append(name, v);
    else if (value !== undefined) headers.set(name, value);
  }
  // The mount path (app.use("/emr", ...)) for the handler's Location headers; it replaces any value a client sent.
  if (req.baseUrl) headers.set("x-forwarded-prefix", req.baseUrl);
  else headers.delete("x-forwarded-prefix");
  const hasBody = req.method !== "GET" && req.method !== "HEAD";
  // The raw stream, unread: OpenPractice enforces its own size limit and JSON parsing.
  const body = hasBody ? (Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>) : undefined;
  return new Request(url, { method: req.method, headers, body, duplex: "half" } as RequestInit);
}

/** web Response → Express response, streaming the body. */
async function sendWebResponse(response: Response, res: ExpressResponse): Promise<void> {
  res.status(response.status);
  for (const [name, value] of response.headers) {
    if (name === "set-cookie") continue;
    res.setHeader(name, value);
  }
  const cookies = response.headers.getSetCookie();
  if (cookies.length > 0) res.setHeader("set-cookie", cookies);
  if (!response.body) return void res.end();
  await new Promise<void>((resolve, reject) => {
    Readable.fromWeb(response.body as never)
      .on("error", reject)
      .pipe(res)
      .on("finish", resolve)
      .on("error", reject);
  });
}

/**
 * Mounts the OpenPractice fetch handler in an Express 5 app:
 * `app.use("/emr", openPracticeMiddleware(handler))`. Mount it before any body
 * parser for its paths (express.json() would consume the body first).
 */
export function openPracticeMiddleware(handler: FetchHandler): RequestHandler {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if ((req as { _body?: boolean })._body) {
      return next(
        new Error("OpenPractice must be mounted before body-parsing middleware: the request body was already read"),
      );
    }
    // The socket's peer: behind a proxy, the proxy (X-Forwarded-For is the client's word, so it is not trusted here).
    handler(toWebRequest(req), { remoteAddress: req.socket.remoteAddress })
      .then((response) => sendWebResponse(response, res))
      .catch(next);
  };
}
