import { Readable } from "node:stream";
import type { ReadableStream as NodeWebReadableStream } from "node:stream/web";
import { type ByteStream, DomainError, type ValidationIssue } from "@openpractice/core";
import busboy from "busboy";

/** The file part of an upload as the service takes it: its bytes as they arrive, and the form's fields once read. */
export interface UploadedFile {
  content: ByteStream;
  fileName: string;
  declaredType: string | undefined;
  /** Resolves once the whole form is read (fields may follow the file); rejects with the form's problems. */
  fields(): Promise<Record<string, string>>;
}

const FIELD_LIMITS = { fields: 20, fieldSize: 8 * 1024, fieldNameSize: 100, parts: 25 } as const;

const invalid = (issues: ValidationIssue[], message?: string) =>
  new DomainError(
    "DOCUMENT_UPLOAD_INVALID",
    message ?? `Invalid upload: ${issues.map((i) => `${i.field}: ${i.reason}`).join("; ")}`,
    { issues },
  );

/** The file's bytes; a stream that breaks (a cut-off body, a malformed form) is DOCUMENT_UPLOAD_INVALID, not a 500. */
async function* guarded(stream: AsyncIterable<Uint8Array>): AsyncGenerator<Uint8Array> {
  try {
    yield* stream;
  } catch (error) {
    if (error instanceof DomainError) throw error;
    throw invalid([{ field: "file", reason: `was cut off (${(error as Error).message})` }]);
  }
}

/**
 * Reads a multipart/form-data upload with busboy as it arrives: the one file part named `file` goes to `onFile`
 * as a stream (never buffered whole); fields before or after it are collected. Resolves with what `onFile`
 * resolves. When the answer comes before the body was read to its end (a refusal mid-file), nothing more is parsed
 * or stored: the rest is discarded while the answer goes out (discardWhileAnswering).
 */
export async function receiveUpload<T>(
  request: Request,
  o: { maxFileBytes: number; onFile: (file: UploadedFile) => Promise<T> },
): Promise<T> {
  const type = request.headers.get("content-type") ?? "";
  if (!/^multipart\/form-data\b/i.test(type))
    throw new DomainError(
      "UNSUPPORTED_MEDIA_TYPE",
      "An upload is multipart/form-data: one file part named file, and the fields",
      { content_type: type || null },
    );
  if (!request.body) throw invalid([{ field: "file", reason: "is required: one file part named file" }]);
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: { "content-type": type },
      limits: { ...FIELD_LIMITS, files: 1, fileSize: o.maxFileBytes + 1 },
    });
  } catch (error) {
    throw invalid([{ field: "(body)", reason: `is not a readable multipart form (${(error as Error).message})` }]);
  }
  const source = Readable.fromWeb(request.body as unknown as NodeWebReadableStream<Uint8Array>);
  const fields: Record<string, string> = {};
  const issues: ValidationIssue[] = [];
  let closed = false;
  let fileSeen = false;
  const formRead = new Promise<void>((resolve, reject) => {
    parser.on("close", () => {
      closed = true;
      resolve();
    });
    parser.on("error", (error: Error) => reject(invalid([{ field: "(body)", reason: error.message }])));
    source.on("error", (error: Error) => {
      // The client went away mid-body: busboy passes the error to the file part being read, so the store's put
      // fails and removes what it wrote, instead of waiting for bytes that never come.
      parser.destroy(error);
      reject(invalid([{ field: "(body)", reason: `was cut off (${error.message})` }]));
    });
  });
  formRead.catch(() => undefined);
  const outcome = new Promise<T>((resolve, reject) => {
    parser.on("field", (name: string, value: string, info: busboy.FieldInfo) => {
      if (info.nameTruncated || info.valueTruncated)
        issues.push({ field: name, reason: `must be at most ${FIELD_LIMITS.fieldSize} bytes` });
      else if (name in fields) issues.push({ field: name, reason: "is sent twice" });
      else fields[name] = value;
    });
    parser.on("filesLimit", () => issues.push({ field: "file", reason: "must be one file part, not several" }));
    parser.on("partsLimit", () =>
      issues.push({ field: "(body)", reason: `has more than ${FIELD_LIMITS.parts} parts` }),
    );
    parser.on("fieldsLimit", () =>
      issues.push({ field: "(body)", reason: `has more than ${FIELD_LIMITS.fields} fields` }),
    );
    parser.on("file", (name: string, stream: Readable, info: busboy.FileInfo) => {
      if (name !== "file") {
        issues.push({ field: name, reason: "is a file part; the document's part is named file" });
        stream.resume();
        return;
      }
      fileSeen = true;
      o.onFile({
        content: guarded(stream),
        fileName: info.filename ?? "",
        declaredType: info.mimeType,
        fields: async () => {
          await formRead;
          if (issues.length > 0) throw invalid(issues);
          return fields;
        },
      }).then(resolve, reject);
    });
    formRead.then(
      () => {
        if (!fileSeen) {
          const missing: ValidationIssue[] = [{ field: "file", reason: "is required: one file part named file" }];
          reject(invalid([...missing, ...issues]));
        }
      },
      (error: unknown) => {
        if (!fileSeen) reject(error);
      },
    );
  });
  source.pipe(parser);
  try {
    return await outcome;
  } finally {
    if (!closed) {
      // Answered before the body ended (a refusal mid-file): nothing more is parsed or stored.
      source.unpipe(parser);
      parser.destroy();
      discardWhileAnswering(source);
    }
  }
}

/** A body refused before it was read (an unknown patient): discarded while the answer goes out, as below. */
export function discardUnreadBody(request: Request): void {
  if (!request.body || request.bodyUsed) return;
  discardWhileAnswering(Readable.fromWeb(request.body as unknown as NodeWebReadableStream<Uint8Array>));
}

/** How much of a refused body is still read and thrown away, and for how long, so the client sees the answer. */
const LINGER = { bytes: 256 * 1024 * 1024, ms: 5_000 } as const;

/**
 * A client still sending its body loses an answer whose connection is closed under it (the unread bytes turn the
 * close into a reset that discards the answer on its side), so the connection is not closed with the answer:
 * what the client still sends is read and thrown away, as nginx's lingering close does, for at most 5 seconds or
 * 256 MiB, after which the stream (and with it the connection) is destroyed. A client that reads the early answer
 * and stops sending ends it sooner.
 */
function discardWhileAnswering(source: Readable): void {
  let discarded = 0;
  const stop = () => {
    clearTimeout(timer);
    source.destroy();
  };
  const timer = setTimeout(stop, LINGER.ms);
  timer.unref();
  source.on("data", (chunk: Buffer) => {
    discarded += chunk.length;
    if (discarded > LINGER.bytes) stop();
  });
  source.once("end", stop);
  source.once("error", stop);
  source.resume();
}
