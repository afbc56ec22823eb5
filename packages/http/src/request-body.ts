import { DomainError, MAX_JSON_DEPTH } from "@openpractice/core";

export const DEFAULT_BODY_LIMIT_BYTES = 1024 * 1024;

/**
 * Reads and parses a JSON body, refusing non-JSON content types, bodies over
 * `limitBytes` (checked on Content-Length and again while streaming, so a lying
 * or absent header cannot get past it), bodies nested deeper than
 * MAX_JSON_DEPTH (before parsing them) and unparseable JSON.
 */
export async function readJsonBody(request: Request, limitBytes: number): Promise<unknown> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^application\/([\w.+-]+\+)?json\b/i.test(type)) {
    throw new DomainError("UNSUPPORTED_MEDIA_TYPE", "Request body must be JSON (Content-Type: application/json)", { content_type: type || null });
  }
  const declared = Number(request.headers.get("content-length") ?? "NaN");
  const tooLarge = () => new DomainError("PAYLOAD_TOO_LARGE", `Request body exceeds ${limitBytes} bytes`, { limit_bytes: limitBytes });
  if (Number.isFinite(declared) && declared > limitBytes) throw tooLarge();
  if (!request.body) throw new DomainError("MALFORMED_JSON", "Request body is required", { issues: [{ field: "(body)", reason: "is required" }] });
  // A declared length within the limit: one read instead of a chunk loop. The
  // host delivers at most Content-Length bytes, so the limit still holds.
  const text = Number.isFinite(declared) ? await request.text() : await readLimited(request.body, limitBytes, tooLarge);
  if (text.trim() === "") throw new DomainError("MALFORMED_JSON", "Request body is required", { issues: [{ field: "(body)", reason: "is required" }] });
  if (nestsDeeperThan(text, MAX_JSON_DEPTH)) {
    throw DomainError.validation([{ field: "(body)", reason: `must not nest arrays and objects deeper than ${MAX_JSON_DEPTH} levels` }]);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new DomainError("MALFORMED_JSON", `Request body is not valid JSON: ${(error as Error).message}`);
  }
}

/** Reads a body of unknown length, giving up as soon as it passes the limit. */
async function readLimited(body: ReadableStream<Uint8Array>, limitBytes: number, tooLarge: () => DomainError): Promise<string> {
  const chunks: Uint8Array[] = [];
  let size = 0;
  const reader = body.getReader();
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.byteLength;
    if (size > limitBytes) {
      // Stop reading without destroying the stream (that would reset the socket under the reply);
      // the 413 goes out with Connection: close, so the unread rest never reaches us.
      reader.releaseLock();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks).toString("utf8");
}

/**
 * Whether JSON text opens more than `limit` arrays and objects at once: one pass
 * over the characters, brackets inside strings (escapes included) not counted.
 * Malformed text is left to JSON.parse.
 */
export function nestsDeeperThan(text: string, limit: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \\ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > limit) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}
