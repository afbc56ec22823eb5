import { fileTypeFromBuffer } from "file-type";

/** How many leading bytes detection reads (file-type's own sample size). */
export const MEDIA_SAMPLE_BYTES = 4100;

/** Plain text: valid UTF-8 (a character cut at the sample's end allowed) with no control bytes but tab and line ends. */
function looksLikeText(sample: Uint8Array): boolean {
  if (sample.byteLength === 0) return false;
  for (const byte of sample)
    if (byte < 0x20 && byte !== 0x09 && byte !== 0x0a && byte !== 0x0d && byte !== 0x0c) return false;
  try {
    new TextDecoder("utf-8", { fatal: true }).decode(sample, { stream: true });
    return true;
  } catch {
    return false;
  }
}

/**
 * The media type of a content from its first bytes (file-type's magic numbers; plain text recognised apart, as
 * file-type leaves text out), never from the client's claim: application/octet-stream when nothing matches.
 */
export async function detectMediaType(sample: Uint8Array): Promise<string> {
  const found = await fileTypeFromBuffer(sample);
  if (found) return found.mime;
  return looksLikeText(sample) ? "text/plain" : "application/octet-stream";
}

const ALIASES: Readonly<Record<string, string>> = {
  "image/jpg": "image/jpeg",
  "image/pjpeg": "image/jpeg",
  "image/x-png": "image/png",
  "image/tif": "image/tiff",
  "application/x-pdf": "application/pdf",
};

/**
 * The declared type as compared with the detected one: parameters dropped, lower case, common aliases folded;
 * undefined when the client made no claim (no type, or application/octet-stream, which means "some bytes").
 */
export function declaredMediaType(header: string | undefined): string | undefined {
  const type = header?.split(";")[0]?.trim().toLowerCase();
  if (!type || type === "application/octet-stream") return undefined;
  return ALIASES[type] ?? type;
}
