import { DomainError, MAX_JSON_DEPTH } from "@openpractice/core";

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * How much of a too-large body is still read (and thrown away) before the 413
 * goes out. Many clients send their whole body before they read the reply; a
 * connection closed while they still send resets, and the reset loses the
 * reply. Bodies larger than the limit plus this get the 413 at once.
 */
export const OVERSIZE_DRAIN_BYTES = 16 * 1024 * 1024;

/**
 * Reads and parses a JSON body, refusing non-JSON content types, bodies over
 * `limitBytes` (checked on Content-Length and again while streaming, so a lying
 * or absent header cannot get past it), bodies nested deeper than
 * MAX_JSON_DEPTH (before parsing them) and unparseable JSON.
 */
export async function readJsonBody(request: Request, limitBytes: number): Promise<unknown> {
  const { declared, tooLarge } = await admitBody(
    request,
    limitBytes,
    /^application\/([\w.+-]+\+)?json\b/i,
    "Request body must be JSON (Content-Type: application/json)",
  );
  if (!request.body)
    throw new DomainError("MALFORMED_JSON", "Request body is required", {
      issues: [{ field: "(body)", reason: "is required" }],
    });
  // A declared length within the limit: one read instead of a chunk loop. The
  // host delivers at most Content-Length bytes, so the limit still holds.
  const text = utf8Text(
    Number.isFinite(declared)
      ? new Uint8Array(await request.arrayBuffer())
      : await readLimited(request.body, limitBytes, tooLarge),
  );
  if (text.trim() === "")
    throw new DomainError("MALFORMED_JSON", "Request body is required", {
      issues: [{ field: "(body)", reason: "is required" }],
    });
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw DomainError.validation([
      { field: "(body)", reason: `must not nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels` },
    ]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DomainError("MALFORMED_JSON", `Request body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Reads a text body of the given media type (a CSV upload): refused unless its Content-Type matches `accepted`,
 * over `limitBytes` (on Content-Length and while streaming), or not UTF-8. An empty body is "".
 */
export async function readTextBody(
  request: Request,
  limitBytes: number,
  accepted: RegExp,
  mediaType: string,
): Promise<string> {
  const { tooLarge } = await admitBody(
    request,
    limitBytes,
    accepted,
    `Request body must be ${mediaType} (Content-Type: ${mediaType})`,
  );
  if (!request.body) return "";
  return utf8Text(await readLimited(request.body, limitBytes, tooLarge));
}

/**
 * The checks before a body is read: its media type (415 otherwise) and its declared length (413 over the limit,
 * after draining a body not much larger, so the client reads the answer). Returns the declared length (NaN when
 * none) and the 413 to throw should the body outgrow the limit while streaming.
 */
async function admitBody(request: Request, limitBytes: number, accepted: RegExp, refusal: string) {
  const type = request.headers.get("content-type") ?? "";
  if (!accepted.test(type)) throw new DomainError("UNSUPPORTED_MEDIA_TYPE", refusal, { content_type: type || null });
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  const tooLarge = () =>
    new DomainError("PAYLOAD_TOO_LARGE", `Request body exceeds ${limitBytes} bytes`, { limit_bytes: limitBytes });
  if (Number.isFinite(declared) && declared > limitBytes) {
    if (request.body && declared <= limitBytes + OVERSIZE_DRAIN_BYTES)
      await discard(request.body.getReader(), declared);
    throw tooLarge();
  }
  return { declared, tooLarge };
}

const STRICT_UTF8 = new TextDecoder("utf-8", { fatal: true });

/**
 * The body as text, refusing bytes that are not UTF-8: a lenient decoder would turn each into U+FFFD, and the
 * record would then hold other text than the client sent (RFC 8259 8.1: JSON exchanged between systems is UTF-8).
 */
function utf8Text(bytes: Uint8Array): string {
  try {
    return STRICT_UTF8.decode(bytes);
  } catch {
    throw new DomainError("MALFORMED_JSON", "Request body is not valid UTF-8", {
      issues: [{ field: "(body)", reason: "must be UTF-8 text" }],
    });
  }
}

/** Reads a body of unknown length, giving up as soon as it passes the limit. */
async function readLimited(
  body: ReadableStream<Uint8Array>,
  limitBytes: number,
  tooLarge: () => DomainError,
): Promise<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      await discard(reader, OVERSIZE_DRAIN_BYTES);
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

/**
 * Reads and drops up to `maxBytes` more of a refused body, so a client still
 * sending gets to the end of its body and reads the 413. Whatever is left is
 * not read: the stream is let go without destroying it (that would reset the
 * socket under the reply), and the 413's Connection: close ends the rest.
 */
async function discard(reader: ReadableStreamDefaultReader<Uint8Array>, maxBytes: number): Promise<void> {
  let dropped = 0;
  try {
    while (dropped <= maxBytes) {
      const { done, value } = await reader.read();
      if (done) break;
      dropped += value.byteLength;
    }
  } catch {
    // the client went away: nothing left to answer
  } finally {
    reader.releaseLock();
  }
}

/**
 * Whether JSON text opens more than `limit` arrays and objects at once: one pass
 * over the characters, brackets inside strings (escapes included) not counted.
 * Strings are skipped with indexOf, so text is mostly scanned at native speed.
 * Malformed text is left to JSON.parse.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      i = closingQuote(text, i);
      if (i < 0) return false;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}

/** The index of the quote closing the string opened at `open` (one not escaped by an odd run of backslashes), or -1. */
function closingQuote(text: string, open: number): number {
  for (let from = open + 1; ; ) {
    const quote = text.indexOf('"', from);
    if (quote < 0) return -1;
    let backslashes = 0;
    while (quote - backslashes - 1 > open && text.charCodeAt(quote - backslashes - 1) === 0x5c) backslashes++;
    if (backslashes % 2 === 0) return quote;
    from = quote + 1;
  }
}
