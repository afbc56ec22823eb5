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
 * resolves. When the answer comes before the body was read to its end (a refusal mid-file), the rest is not
 * read: the request stream is destroyed and `unread()` is called, so the host closes the connection.
 */
export async function receiveUpload<T>(
  request: Request,
  o: { maxFileBytes: number; onFile: (file: UploadedFile) => Promise<T>; unread: () => void },
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
      // Answered before the body ended (a refusal mid-file): read no more of it.
      source.unpipe(parser);
      source.destroy();
      o.unread();
    }
  }
}
