import { Readable } from "node:stream";
import type { NextFunction, Request as ExpressRequest, RequestHandler, Response as ExpressResponse } from "express";
import type { FetchHandler } from "@openpractice/http";
import { bodyReadBefore, bodyWasRead } from "./body-read-before.js";

/** The handler type is declared once, in @openpractice/http; any function of that shape can be hosted. */
export type { FetchHandler } from "@openpractice/http";

/** Why a request cannot be handed on: middleware before OpenPractice read its body and kept no form of it we can use. */
export class BodyAlreadyReadError extends Error {
  override readonly name = "BodyAlreadyReadError";
  /** For Express's error handler: the host's set-up, not the client, is at fault. */
  readonly status = 500;
  constructor(req: ExpressRequest) {
    super(
      `OpenPractice cannot read the body of ${req.method} ${req.originalUrl}: middleware mounted before it read ` +
        "the body and kept nothing OpenPractice can read again. Mount openPracticeMiddleware before that " +
        "middleware, or give the body parser `verify: keepRawBody` (from @openpractice/express) to keep the bytes",
    );
  }
}

/**
 * The web body of a request: the raw stream, unread, when nothing read it before (OpenPractice enforces its own
 * size limit and parsing); else what a parser left (bodyReadBefore), with the headers made to describe it.
 */
function webBody(req: ExpressRequest, headers: Headers): BodyInit | undefined {
  if (req.method === "GET" || req.method === "HEAD") return undefined;
  if (!bodyWasRead(req) && !Buffer.isBuffer((req as { rawBody?: unknown }).rawBody))
    return Readable.toWeb(req) as unknown as ReadableStream<Uint8Array>;
  const body = bodyReadBefore(req);
  if (body === null) throw new BodyAlreadyReadError(req);
  // The parser undid any Content-Encoding and read the whole body: what is handed on is plain, of this length.
  headers.delete("content-encoding");
  headers.delete("transfer-encoding");
  headers.set("content-length", String(Buffer.byteLength(body)));
  // A view of the same bytes, typed as fetch takes them (Node's buffers sit on an ArrayBuffer).
  return typeof body === "string" ? body : new Uint8Array(body.buffer as ArrayBuffer, body.byteOffset, body.byteLength);
}

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
  return new Request(url, { method: req.method, headers, body: webBody(req, headers), duplex: "half" } as RequestInit);
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
 * `app.use("/emr", openPracticeMiddleware(handler))`. Before any body parser
 * it streams the body itself; after express.json(), express.urlencoded(),
 * express.raw() or express.text() it reads what the parser left
 * (bodyReadBefore), exactly with the parser's `verify: keepRawBody`. A body
 * read by other middleware that left nothing usable is a BodyAlreadyReadError
 * passed to `next`, naming the fix.
 */
export function openPracticeMiddleware(handler: FetchHandler): RequestHandler {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    let request: Request;
    try {
      request = toWebRequest(req);
    } catch (error) {
      return next(error);
    }
    // The socket's peer: behind a proxy, the proxy (X-Forwarded-For is the client's word, so it is not trusted here).
    handler(request, { remoteAddress: req.socket.remoteAddress })
      .then((response) => sendWebResponse(response, res))
      .catch(next);
  };
}
