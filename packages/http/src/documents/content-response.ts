import { ReadableStream as WebReadableStream } from "node:stream/web";
import type { ByteRange, ByteStream, PatientDocument } from "@openpractice/core";

/**
 * The single range a Range header asks for (RFC 9110 section 14.1.2: `bytes=first-last`, `bytes=first-`,
 * `bytes=-suffix`), clipped to the content; undefined when there is no header, when it is not a bytes range the
 * server reads (several ranges, another unit, bad syntax: the whole content is sent, as the RFC allows), or when
 * If-Range names another version. "unsatisfiable" when it lies outside the content.
 */
export function requestedRange(headers: Headers, size: number, etag: string): ByteRange | "unsatisfiable" | undefined {
  const header = headers.get("range");
  if (!header) return undefined;
  const ifRange = headers.get("if-range");
  if (ifRange !== null && ifRange.trim() !== etag) return undefined;
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match || (match[1] === "" && match[2] === "")) return undefined;
  const [, first, last] = match as unknown as [string, string, string];
  if (first === "") {
    const suffix = Number(last);
    if (suffix === 0) return "unsatisfiable";
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(first);
  if (start >= size) return "unsatisfiable";
  const end = last === "" ? size - 1 : Math.min(Number(last), size - 1);
  if (end < start) return undefined;
  return { start, end };
}

/** RFC 6266/8187 Content-Disposition: an ASCII fallback and the UTF-8 name in filename*. */
export function attachmentDisposition(fileName: string): string {
  const fallback = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  const encoded = encodeURIComponent(fileName).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${fallback}"; filename*=UTF-8''${encoded}`;
}

/** The document's strong validator: its SHA-256, quoted. */
export const etagOf = (d: Pick<PatientDocument, "sha256">) => `"${d.sha256}"`;

/** Streams the content: 200 whole or 206 for a range, with the headers a download of patient data needs. */
export function contentResponse(
  document: PatientDocument,
  content: ByteStream,
  range: ByteRange | undefined,
): Response {
  // Pulled as the host writes (a cancelled download returns the iterator, which closes the store's stream).
  const body = WebReadableStream.from(content) as unknown as ReadableStream<Uint8Array>;
  const headers: Record<string, string> = {
    "content-type": document.mediaType === "text/plain" ? "text/plain; charset=utf-8" : document.mediaType,
    "content-disposition": attachmentDisposition(document.fileName),
    etag: etagOf(document),
    "accept-ranges": "bytes",
    "x-content-type-options": "nosniff",
    "cache-control": "private, no-store",
    "content-length": String(range ? range.end - range.start + 1 : document.sizeBytes),
  };
  if (range) headers["content-range"] = `bytes ${range.start}-${range.end}/${document.sizeBytes}`;
  return new Response(body, { status: range ? 206 : 200, headers });
}
