import type { ByteRange } from "@openpractice/core";

/**
 * Where the bytes of a ranged GetObject answer start, from its Content-Range (`bytes 0-99/1000`), or 0 when there is
 * none (the server ignored the Range and sent the whole object).
 */
export function answeredStart(contentRange: string | undefined): number {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(contentRange ?? "");
  return match ? Number(match[1]) : 0;
}

/**
 * The requested range out of an answer that may hold more: S3-compatible servers differ (s3rver reads `bytes=0-0`
 * as the whole object, its Content-Range saying so), and a caller asking for one byte must get one byte. Skips the
 * bytes before `range.start`, stops after `range.end` and ends the answer's stream there.
 */
export async function* trimmedToRange(
  answer: AsyncIterable<Uint8Array>,
  answerStart: number,
  range: ByteRange,
): AsyncGenerator<Uint8Array> {
  let offset = answerStart;
  for await (const chunk of answer) {
    const from = Math.max(0, range.start - offset);
    const to = Math.min(chunk.byteLength, range.end + 1 - offset);
    offset += chunk.byteLength;
    if (to > from) yield from === 0 && to === chunk.byteLength ? chunk : chunk.subarray(from, to);
    if (offset > range.end) return; // leaving the loop destroys the answer's stream
  }
}
