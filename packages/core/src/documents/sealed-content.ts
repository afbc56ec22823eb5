import { createCipheriv, createDecipheriv, createSecretKey, type KeyObject, randomBytes } from "node:crypto";
import type { ByteRange, ByteStream } from "./document-store.js";

/**
 * The at-rest format of a document's bytes (docs/documents.md, "Encryption format"): the STREAM construction
 * (Hoang, Reyhanitabar, Rogaway, Vizár 2015; the one age uses) over AES-256-GCM.
 *
 *   header  16 bytes: "OPD1" | chunk size (uint32 BE) | nonce prefix (7 random bytes) | 0x00
 *   chunk i ciphertext of plain bytes [i·C, (i+1)·C) followed by its 16-byte GCM tag
 *
 * Chunk i's nonce is prefix | i (uint32 BE) | last (0x01 on the final chunk, else 0x00) and its additional data
 * is the header, so chunks cannot be reordered, dropped, cut off at the end or moved to another object. Every
 * chunk but the last holds exactly C plain bytes, so the chunks a plain range needs are found by arithmetic and a
 * Range read decrypts only those. Each document has its own 256-bit data key: nonces never repeat under a key.
 */
export const SEALED_MAGIC = Buffer.from("OPD1", "ascii");
export const SEALED_HEADER_BYTES = 16;
export const SEALED_TAG_BYTES = 16;
/** 64 KiB: large enough that the tags cost 0.02%, small enough that a Range read decrypts little more than asked. */
export const DEFAULT_CHUNK_BYTES = 64 * 1024;

/** The number of chunks of a content of `plainBytes` bytes (an empty content is one empty chunk). */
export const chunkCountOf = (plainBytes: number, chunkBytes: number): number =>
  Math.max(1, Math.ceil(plainBytes / chunkBytes));

/** Thrown when sealed bytes fail authentication or are not in the format (a changed byte, a wrong key). */
export class SealedContentError extends Error {
  override readonly name = "SealedContentError";
}

function nonceOf(prefix: Buffer, index: number, last: boolean): Buffer {
  const nonce = Buffer.alloc(12);
  prefix.copy(nonce, 0, 0, 7);
  nonce.writeUInt32BE(index, 7);
  nonce[11] = last ? 1 : 0;
  return nonce;
}

function sealChunk(key: KeyObject, header: Buffer, index: number, last: boolean, plain: Uint8Array): Buffer {
  const cipher = createCipheriv("aes-256-gcm", key, nonceOf(header.subarray(8, 15), index, last));
  cipher.setAAD(header);
  return Buffer.concat([cipher.update(plain), cipher.final(), cipher.getAuthTag()]);
}

function openChunk(key: KeyObject, header: Buffer, index: number, last: boolean, sealed: Buffer): Buffer {
  if (sealed.length < SEALED_TAG_BYTES) throw new SealedContentError(`chunk ${index} is cut short`);
  const decipher = createDecipheriv("aes-256-gcm", key, nonceOf(header.subarray(8, 15), index, last));
  decipher.setAAD(header);
  decipher.setAuthTag(sealed.subarray(sealed.length - SEALED_TAG_BYTES));
  try {
    return Buffer.concat([decipher.update(sealed.subarray(0, sealed.length - SEALED_TAG_BYTES)), decipher.final()]);
  } catch {
    throw new SealedContentError(`chunk ${index} fails authentication (changed bytes or the wrong key)`);
  }
}

/** The sealed size of `plainBytes` bytes: header, the bytes, and one tag per chunk (an empty content has one). */
export function sealedSize(plainBytes: number, chunkBytes = DEFAULT_CHUNK_BYTES): number {
  return SEALED_HEADER_BYTES + plainBytes + chunkCountOf(plainBytes, chunkBytes) * SEALED_TAG_BYTES;
}

/**
 * Seals plain chunks of any size as they arrive, yielding the header and then one sealed chunk per C plain bytes.
 * Holds at most one chunk: the input is re-blocked, never collected.
 */
export async function* sealContent(
  plain: ByteStream,
  key: Buffer,
  chunkBytes = DEFAULT_CHUNK_BYTES,
): AsyncGenerator<Buffer> {
  // One key object for every chunk (a raw key would be imported again by each cipher).
  const secret = createSecretKey(key);
  const header = Buffer.alloc(SEALED_HEADER_BYTES);
  SEALED_MAGIC.copy(header, 0);
  header.writeUInt32BE(chunkBytes, 4);
  randomBytes(7).copy(header, 8);
  yield header;
  // Two buffers in turn: the one being filled, and a full one held until more bytes show it is not the last. A
  // chunk's cipher copies its input out at once, so a buffer is reused as soon as its chunk is sealed.
  const buffers = [Buffer.allocUnsafe(chunkBytes), Buffer.allocUnsafe(chunkBytes)];
  let pending = buffers[0] as Buffer;
  let filled = 0;
  let index = 0;
  let full: Buffer | undefined;
  for await (const piece of plain) {
    let offset = 0;
    while (offset < piece.byteLength) {
      if (full) {
        yield sealChunk(secret, header, index++, false, full);
        full = undefined;
      }
      const take = Math.min(chunkBytes - filled, piece.byteLength - offset);
      pending.set(piece.subarray(offset, offset + take), filled);
      filled += take;
      offset += take;
      if (filled === chunkBytes) {
        full = pending;
        pending = (pending === buffers[0] ? buffers[1] : buffers[0]) as Buffer;
        filled = 0;
      }
    }
  }
  yield sealChunk(secret, header, index, true, full ?? pending.subarray(0, filled));
}

/** Where the sealed chunks of a plain range lie in the object, and how to cut the plain bytes out of them. */
export interface SealedSpan {
  /** The chunks to read (inclusive, sealed offsets), after the header. */
  readonly sealed: ByteRange;
  readonly firstChunk: number;
  readonly lastChunk: number;
  /** Plain bytes to drop from the front of the first chunk. */
  readonly skip: number;
  /** Plain bytes to keep in all. */
  readonly length: number;
}

/** The chunks holding plain bytes [start, end] of a content of `plainBytes` bytes. */
export function sealedSpanOf(range: ByteRange, plainBytes: number, chunkBytes = DEFAULT_CHUNK_BYTES): SealedSpan {
  const chunks = chunkCountOf(plainBytes, chunkBytes);
  const firstChunk = Math.floor(range.start / chunkBytes);
  const lastChunk = Math.min(chunks - 1, Math.floor(range.end / chunkBytes));
  const sealedChunk = chunkBytes + SEALED_TAG_BYTES;
  const lastPlain = lastChunk === chunks - 1 ? plainBytes - lastChunk * chunkBytes : chunkBytes;
  return {
    sealed: {
      start: SEALED_HEADER_BYTES + firstChunk * sealedChunk,
      end: SEALED_HEADER_BYTES + lastChunk * sealedChunk + lastPlain + SEALED_TAG_BYTES - 1,
    },
    firstChunk,
    lastChunk,
    skip: range.start - firstChunk * chunkBytes,
    length: range.end - range.start + 1,
  };
}

/** Checks a header read from the store and returns its chunk size. */
export function parseSealedHeader(header: Buffer): number {
  if (header.length !== SEALED_HEADER_BYTES || !header.subarray(0, 4).equals(SEALED_MAGIC))
    throw new SealedContentError("not a sealed document (the header is missing or of another format)");
  const chunkBytes = header.readUInt32BE(4);
  if (chunkBytes < 1024 || chunkBytes > 16 * 1024 * 1024) throw new SealedContentError("unreadable chunk size");
  return chunkBytes;
}

/**
 * Opens the sealed chunks `span` names (streamed from the store as `sealed`), yielding exactly the plain bytes of
 * the range. `totalChunks` says which chunk is the last, so a cut-off object fails instead of ending early.
 */
export async function* openSealedSpan(
  sealed: ByteStream,
  key: Buffer,
  header: Buffer,
  span: SealedSpan,
  totalChunks: number,
): AsyncGenerator<Buffer> {
  const chunkBytes = parseSealedHeader(header);
  const sealedChunk = chunkBytes + SEALED_TAG_BYTES;
  const secret = createSecretKey(key);
  // One sealed chunk is gathered here before it is opened (reads rarely line up with chunks).
  const gathered = Buffer.allocUnsafe(sealedChunk);
  let have = 0;
  let index = span.firstChunk;
  let skip = span.skip;
  let remaining = span.length;
  const emit = function* (plain: Buffer) {
    const from = Math.min(skip, plain.length);
    skip -= from;
    const out = plain.subarray(from, from + Math.min(remaining, plain.length - from));
    remaining -= out.length;
    if (out.length > 0) yield out;
  };
  for await (const piece of sealed) {
    let offset = 0;
    while (offset < piece.byteLength) {
      if (index > span.lastChunk) throw new SealedContentError("the sealed object is longer than its record says");
      const take = Math.min(sealedChunk - have, piece.byteLength - offset);
      gathered.set(piece.subarray(offset, offset + take), have);
      have += take;
      offset += take;
      if (have === sealedChunk) {
        yield* emit(openChunk(secret, header, index, index === totalChunks - 1, gathered));
        index++;
        have = 0;
      }
    }
  }
  if (index === span.lastChunk && have > 0) {
    yield* emit(openChunk(secret, header, index, index === totalChunks - 1, gathered.subarray(0, have)));
    index++;
  }
  if (index !== span.lastChunk + 1 || remaining !== 0) throw new SealedContentError("the sealed object ends early");
}
