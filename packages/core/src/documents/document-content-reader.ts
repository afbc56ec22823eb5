import type { ByteRange, ByteStream, DocumentStore } from "./document-store.js";
import {
  chunkCountOf,
  openSealedSpan,
  parseSealedHeader,
  SEALED_HEADER_BYTES,
  sealedSpanOf,
} from "./sealed-content.js";

/** Reads the first `bytes` bytes of a stream, returning them and the rest of the stream. */
async function splitHead(stream: ByteStream, bytes: number): Promise<{ head: Buffer; rest: ByteStream }> {
  const iterator = stream[Symbol.asyncIterator]();
  const parts: Buffer[] = [];
  let have = 0;
  while (have < bytes) {
    const next = await iterator.next();
    if (next.done) break;
    const piece = Buffer.from(next.value.buffer, next.value.byteOffset, next.value.byteLength);
    parts.push(piece);
    have += piece.length;
  }
  const all = Buffer.concat(parts, have);
  const overflow = all.subarray(bytes);
  const rest: ByteStream = {
    async *[Symbol.asyncIterator]() {
      if (overflow.length > 0) yield overflow;
      for (;;) {
        const next = await iterator.next();
        if (next.done) return;
        yield next.value;
      }
    },
  };
  return { head: all.subarray(0, bytes), rest };
}

/**
 * The plain bytes of a sealed document, whole or the inclusive `range`, decrypted as they stream from the store.
 * A range starting in the first chunk is one read of the store (header and chunks together); a later one reads
 * the 16-byte header, then only the chunks it covers.
 */
export async function readSealedContent(
  store: DocumentStore,
  o: { storageKey: string; dataKey: Buffer; sizeBytes: number; range?: ByteRange | undefined },
): Promise<ByteStream> {
  const range = o.range ?? { start: 0, end: o.sizeBytes - 1 };
  // The chunk size is the header's; the span is computed with it once the header is read.
  let header: Buffer;
  let sealed: ByteStream;
  const probe = sealedSpanOf(range, o.sizeBytes);
  if (probe.firstChunk === 0) {
    const whole = await store.get(o.storageKey, { start: 0, end: probe.sealed.end });
    const split = await splitHead(whole, SEALED_HEADER_BYTES);
    header = split.head;
    sealed = split.rest;
    const chunkBytes = parseSealedHeader(header);
    const span = sealedSpanOf(range, o.sizeBytes, chunkBytes);
    if (span.firstChunk !== 0 || span.sealed.end !== probe.sealed.end) {
      // Stored with another chunk size: read again with the right span.
      return readWithHeader(store, o, header, range);
    }
    return openSealedSpan(sealed, o.dataKey, header, span, chunkCountOf(o.sizeBytes, chunkBytes));
  }
  const head = await store.get(o.storageKey, { start: 0, end: SEALED_HEADER_BYTES - 1 });
  header = (await splitHead(head, SEALED_HEADER_BYTES)).head;
  return readWithHeader(store, o, header, range);
}

async function readWithHeader(
  store: DocumentStore,
  o: { storageKey: string; dataKey: Buffer; sizeBytes: number },
  header: Buffer,
  range: ByteRange,
): Promise<ByteStream> {
  const chunkBytes = parseSealedHeader(header);
  const span = sealedSpanOf(range, o.sizeBytes, chunkBytes);
  const sealed = await store.get(o.storageKey, span.sealed);
  return openSealedSpan(sealed, o.dataKey, header, span, chunkCountOf(o.sizeBytes, chunkBytes));
}
