import type { ByteStream } from "@openpractice/core";

/**
 * Test content generated lazily and checked as it streams back, so a 20 MiB object never sits in memory: the byte
 * at offset `i` of pattern `seed` is a hash of (seed, i), so any range can be checked on its own and a shifted,
 * repeated or dropped chunk shows up at the first wrong offset.
 */
export function patternByte(seed: number, offset: number): number {
  let x = Math.imul(offset ^ Math.imul(seed, 0x27d4eb2d), 0x9e3779b1);
  x ^= x >>> 15;
  x = Math.imul(x, 0x85ebca6b);
  x ^= x >>> 13;
  return x & 0xff;
}

export interface PatternStreamOptions {
  /** Total bytes. */
  size: number;
  seed: number;
  /**
   * Chunk sizes, cycled (default: irregular sizes averaging about 64 KiB). Chunks are views into larger buffers
   * at a non-zero offset, as a decipher's output can be: an adapter that reads `chunk.buffer` whole fails.
   */
  chunkSizes?: readonly number[];
  /** Throw this error once this many bytes were yielded: the failing upload of the contract. */
  failAfter?: { bytes: number; error: Error };
}

const IRREGULAR_CHUNKS = [65_536, 1, 131_071, 4_099, 70_000, 12_345, 98_304, 7];

/** The pattern as a ByteStream of Uint8Array chunks, generated on demand. */
export async function* patternStream(options: PatternStreamOptions): AsyncGenerator<Uint8Array> {
  const sizes = options.chunkSizes ?? IRREGULAR_CHUNKS;
  let offset = 0;
  let turn = 0;
  while (offset < options.size) {
    if (options.failAfter && offset >= options.failAfter.bytes) throw options.failAfter.error;
    const wanted = sizes[turn++ % sizes.length] ?? 65_536;
    const length = Math.min(wanted, options.size - offset, (options.failAfter?.bytes ?? Infinity) - offset);
    const backing = new Uint8Array(length + 3);
    const chunk = backing.subarray(3);
    for (let i = 0; i < length; i++) chunk[i] = patternByte(options.seed, offset + i);
    offset += length;
    // Yield to the event loop now and then, as a real source (a socket, a cipher) does.
    if (turn % 16 === 0) await new Promise((resolve) => setImmediate(resolve));
    yield chunk;
  }
  if (options.failAfter && offset >= options.failAfter.bytes) throw options.failAfter.error;
}

/** What reading a stream back found: its length, its chunk count and the first offset that did not match. */
export interface PatternCheck {
  size: number;
  chunks: number;
  firstMismatch: number | null;
}

/** Reads `stream` to its end, checking each byte against the pattern from offset `start` on. */
export async function checkPattern(stream: ByteStream, seed: number, start = 0): Promise<PatternCheck> {
  let size = 0;
  let chunks = 0;
  let firstMismatch: number | null = null;
  for await (const chunk of stream) {
    chunks++;
    if (firstMismatch === null)
      for (let i = 0; i < chunk.length; i++)
        if (chunk[i] !== patternByte(seed, start + size + i)) {
          firstMismatch = start + size + i;
          break;
        }
    size += chunk.length;
  }
  return { size, chunks, firstMismatch };
}
