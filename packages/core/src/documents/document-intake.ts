import { createHash } from "node:crypto";
import type { ByteStream, DocumentStore } from "./document-store.js";
import { documentError } from "./patient-document-errors.js";
import { declaredMediaType, detectMediaType, MEDIA_SAMPLE_BYTES } from "./media-type-detection.js";
import { sealContent } from "./sealed-content.js";

/** What an upload's stream became in the store, before its row exists. */
export interface StagedContent {
  readonly storageKey: string;
  readonly sizeBytes: number;
  readonly sha256: string;
  readonly mediaType: string;
}

export interface IntakeLimits {
  readonly maxBytes: number;
  readonly allowedMediaTypes: readonly string[];
}

/**
 * Checks the plain bytes as they pass, before they are sealed: the size limit (refused the moment it is passed,
 * so the rest is never read), the media type detected from the first bytes (refused before anything past them is
 * stored), an empty content; and hashes them. Holds at most the detection sample.
 */
async function* checkedContent(
  source: ByteStream,
  limits: IntakeLimits,
  declaredType: string | undefined,
  seen: { size: number; mediaType: string | undefined; hash: ReturnType<typeof createHash> },
): AsyncGenerator<Uint8Array> {
  let sample: Uint8Array[] | undefined = [];
  let sampled = 0;
  const decide = async () => {
    const head = Buffer.concat(sample ?? []);
    const detected = await detectMediaType(head.subarray(0, MEDIA_SAMPLE_BYTES));
    const declared = declaredMediaType(declaredType);
    if (!limits.allowedMediaTypes.includes(detected))
      throw documentError(
        "DOCUMENT_TYPE_NOT_ALLOWED",
        `The file's content is ${detected}, which is not accepted (accepted: ${limits.allowedMediaTypes.join(", ")})`,
        {
          field: "file",
          detected_type: detected,
          declared_type: declared ?? null,
          allowed_types: [...limits.allowedMediaTypes],
        },
      );
    if (declared !== undefined && declared !== detected)
      throw documentError(
        "DOCUMENT_TYPE_NOT_ALLOWED",
        `The file is declared as ${declared} but its content is ${detected}`,
        {
          field: "file",
          detected_type: detected,
          declared_type: declared,
          allowed_types: [...limits.allowedMediaTypes],
        },
      );
    seen.mediaType = detected;
    sample = undefined;
    return head;
  };
  for await (const piece of source) {
    seen.size += piece.byteLength;
    if (seen.size > limits.maxBytes)
      throw documentError("DOCUMENT_TOO_LARGE", `The file exceeds the limit of ${limits.maxBytes} bytes`, {
        field: "file",
        limit_bytes: limits.maxBytes,
      });
    seen.hash.update(piece);
    if (sample) {
      sample.push(piece);
      sampled += piece.byteLength;
      if (sampled >= MEDIA_SAMPLE_BYTES) yield await decide();
    } else yield piece;
  }
  if (seen.size === 0) throw documentError("DOCUMENT_EMPTY", "The file is empty", { field: "file" });
  if (sample) yield await decide();
}

/**
 * Streams an upload into the store: checked (checkedContent), sealed under the document's data key, written under
 * `storageKey`. A refusal or a cut-off stream rejects, and the store's put leaves nothing behind.
 */
export async function stageContent(
  store: DocumentStore,
  source: ByteStream,
  o: { storageKey: string; dataKey: Buffer; limits: IntakeLimits; declaredType: string | undefined },
): Promise<StagedContent> {
  const seen = { size: 0, mediaType: undefined as string | undefined, hash: createHash("sha256") };
  await store.put(o.storageKey, sealContent(checkedContent(source, o.limits, o.declaredType, seen), o.dataKey));
  return {
    storageKey: o.storageKey,
    sizeBytes: seen.size,
    sha256: seen.hash.digest("hex"),
    mediaType: seen.mediaType ?? "application/octet-stream",
  };
}
