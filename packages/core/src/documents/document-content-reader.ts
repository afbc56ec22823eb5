import type { ByteRange, ByteStream, DocumentStore } from "./document-store.js";
import {
  chunkCountOf,
  DEFAULT_CHUNK_BYTES,
  openSealedSpan,
  parseSealedHeader,
  SEALED_HEADER_BYTES,
  sealedSpanOf,
} from "./sealed-content.js";

/** Reads the first `bytes` bytes of a stream, returning them, the rest of the stream, and how to drop the rest. */
async function splitHead(
  stream: ByteStream,
  bytes: number,
): Promise<{ head: Buffer; rest: ByteStream; close: () => Promise<unknown> }> {
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
  return { head: all.subarray(0, bytes), rest, close: async () => iterator.return?.() };
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
  // The span in the chunk size sealContent writes; the header, read with the chunks or before them, confirms it.
  const span = sealedSpanOf(range, o.sizeBytes);
  if (span.firstChunk > 0) {
    const head = await splitHead(
      await store.get(o.storageKey, { start: 0, end: SEALED_HEADER_BYTES - 1 }),
      SEALED_HEADER_BYTES,
    );
    await head.close();
    return readWithHeader(store, o, head.head, range);
  }
  const split = await splitHead(await store.get(o.storageKey, { start: 0, end: span.sealed.end }), SEALED_HEADER_BYTES);
  const chunkBytes = parseSealedHeader(split.head);
  if (chunkBytes === DEFAULT_CHUNK_BYTES)
    return openSealedSpan(split.rest, o.dataKey, split.head, span, chunkCountOf(o.sizeBytes, chunkBytes));
  // Sealed with another chunk size: the span read was not this object's; read the right one.
  await split.close();
  return readWithHeader(store, o, split.head, range);
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
