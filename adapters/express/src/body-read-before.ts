import type { IncomingMessage, ServerResponse } from "node:http";

/** A request as a body parser may leave it: `body` from express.json() and its kin, `rawBody` from a verify callback. */
type ParsedRequest = IncomingMessage & { body?: unknown; rawBody?: unknown };

const JSON_TYPE = /^application\/([\w.+-]+\+)?json\b/i;
const FORM_TYPE = /^application\/x-www-form-urlencoded\b/i;

/**
 * A body parser's `verify` callback that keeps the bytes it read on the request (`req.rawBody`, the name Cloud
 * Functions and many hosts use): `app.use(express.json({ verify: keepRawBody }))`. openPracticeMiddleware mounted
 * after that parser then reads the body exactly as it was sent (after any Content-Encoding was undone).
 */
export function keepRawBody(req: IncomingMessage, _res: ServerResponse, buf: Buffer): void {
  (req as ParsedRequest).rawBody = buf;
}

/** Whether middleware mounted before OpenPractice read the request's body stream (a body parser, say). */
export function bodyWasRead(req: IncomingMessage): boolean {
  return req.readableDidRead || req.readableEnded;
}

/** A form's fields encoded again, repeated names kept; null when a field is nested (qs's `a[b]=c`), which is lost. */
function formEncoded(fields: object): string | null {
  const form = new URLSearchParams();
  for (const [name, value] of Object.entries(fields)) {
    const values: unknown[] = Array.isArray(value) ? value : [value];
    if (!values.every((v) => typeof v === "string")) return null;
    for (const v of values) form.append(name, v as string);
  }
  return form.toString();
}

/**
 * The body of a request whose stream another middleware already read, as OpenPractice would have read it, or null
 * when it cannot be told:
 * - `req.rawBody` (a Buffer: keepRawBody, Cloud Functions): the bytes as sent;
 * - `req.body` a Buffer (express.raw()) or a string (express.text()): those bytes, that text;
 * - `req.body` parsed from JSON (express.json()): JSON.stringify of it. OpenPractice parses with JSON.parse too,
 *   so it reads the same value: duplicate names were already reduced to the last, numbers to doubles, escapes
 *   (lone surrogates included) are written back as escapes;
 * - `req.body` parsed from a form (express.urlencoded()): its fields encoded again, repeated names kept.
 */
export function bodyReadBefore(req: IncomingMessage): Uint8Array | string | null {
  const { body, rawBody } = req as ParsedRequest;
  if (Buffer.isBuffer(rawBody)) return rawBody;
  if (Buffer.isBuffer(body) || typeof body === "string") return body;
  if (body === undefined) return null;
  const type = req.headers["content-type"] ?? "";
  if (JSON_TYPE.test(type)) return JSON.stringify(body);
  if (FORM_TYPE.test(type) && typeof body === "object" && body !== null && !Array.isArray(body))
    return formEncoded(body);
  return null;
}
