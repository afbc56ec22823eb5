import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";
import { describe, expect, it } from "vitest";
import type { ByteRange, ByteStream, DocumentStore, StoredObject } from "./document-store.js";
import { DocumentStoreMissingError } from "./document-store.js";
import { readSealedContent } from "./document-content-reader.js";
import {
  DEFAULT_CHUNK_BYTES,
  SEALED_HEADER_BYTES,
  SealedContentError,
  sealContent,
  sealedSize,
} from "./sealed-content.js";

/** A store over a Map, enough to exercise the format (the real adapters have their own conformance suite). */
function mapStore(): DocumentStore & { objects: Map<string, Buffer> } {
  const objects = new Map<string, Buffer>();
  return {
    kind: "map",
    objects,
    async put(key, content) {
      const parts: Buffer[] = [];
      for await (const piece of content) parts.push(Buffer.from(piece));
      objects.set(key, Buffer.concat(parts));
      return { size: objects.get(key)?.length ?? 0 };
    },
    async get(key, range?: ByteRange): Promise<ByteStream> {
      const all = objects.get(key);
      if (!all) throw new DocumentStoreMissingError(key);
      const bytes = range ? all.subarray(range.start, range.end + 1) : all;
      return (async function* () {
        // Odd piece sizes, so chunk boundaries never line up with reads.
        for (let i = 0; i < bytes.length; i += 7_777) yield bytes.subarray(i, i + 7_777);
      })();
    },
    async delete(key) {
      objects.delete(key);
    },
    async *list(): AsyncIterable<StoredObject> {
      for (const key of objects.keys()) yield { key, modifiedAt: new Date() };
    },
  };
}

async function* pieces(bytes: Buffer, size: number): AsyncGenerator<Uint8Array> {
  for (let i = 0; i < bytes.length; i += size) yield bytes.subarray(i, i + size);
}

const collect = async (stream: ByteStream) => {
  const parts: Buffer[] = [];
  for await (const piece of stream) parts.push(Buffer.from(piece));
  return Buffer.concat(parts);
};

describe("sealed content (STREAM over AES-256-GCM)", () => {
  const key = randomBytes(32);
  const C = DEFAULT_CHUNK_BYTES;

  for (const size of [1, 100, C - 1, C, C + 1, 3 * C, 3 * C + 17]) {
    it(`round-trips ${size} bytes, whole and by ranges, decrypting only the chunks a range needs`, async () => {
      const plain = randomBytes(size);
      const store = mapStore();
      await store.put("k", sealContent(pieces(plain, 5_000), key));
      const sealed = store.objects.get("k") as Buffer;
      expect(sealed.length).toBe(sealedSize(size));
      expect(sealed.subarray(0, 4).toString("ascii")).toBe("OPD1");
      // The plain bytes appear nowhere in the object.
      if (size >= 32) expect(sealed.includes(plain.subarray(0, 32))).toBe(false);
      const read = (range?: ByteRange) =>
        readSealedContent(store, { storageKey: "k", dataKey: key, sizeBytes: size, range }).then(collect);
      expect((await read()).equals(plain)).toBe(true);
      const ranges: ByteRange[] = [
        { start: 0, end: 0 },
        { start: size - 1, end: size - 1 },
        { start: Math.floor(size / 3), end: Math.floor((2 * size) / 3) },
        { start: Math.max(0, C - 5), end: Math.min(size - 1, C + 5) },
      ].filter((r) => r.start <= r.end && r.end < size);
      for (const r of ranges) expect((await read(r)).equals(plain.subarray(r.start, r.end + 1))).toBe(true);
    });
  }

  it("matches an independent AES-GCM decryption of chunk 0 (nonce = prefix | index | last flag, header as AAD)", async () => {
    const plain = randomBytes(C + 10);
    const store = mapStore();
    await store.put("k", sealContent(pieces(plain, 1_000), key));
    const sealed = store.objects.get("k") as Buffer;
    const header = sealed.subarray(0, SEALED_HEADER_BYTES);
    const nonce = Buffer.concat([header.subarray(8, 15), Buffer.from([0, 0, 0, 0, 0])]);
    const chunk = sealed.subarray(SEALED_HEADER_BYTES, SEALED_HEADER_BYTES + C + 16);
    const decipher = createDecipheriv("aes-256-gcm", key, nonce);
    decipher.setAAD(header);
    decipher.setAuthTag(chunk.subarray(C));
    expect(Buffer.concat([decipher.update(chunk.subarray(0, C)), decipher.final()]).equals(plain.subarray(0, C))).toBe(
      true,
    );
    // And a chunk sealed here by hand opens through the reader: the format is what the docs say.
    const mine = createCipheriv("aes-256-gcm", key, nonce);
    mine.setAAD(header);
    expect(Buffer.concat([mine.update(plain.subarray(0, C)), mine.final()]).equals(chunk.subarray(0, C))).toBe(true);
  });

  it("refuses a changed byte, a wrong key, a dropped last chunk and a header from another object", async () => {
    const plain = randomBytes(2 * C + 5);
    const store = mapStore();
    await store.put("k", sealContent(pieces(plain, 4_096), key));
    const good = store.objects.get("k") as Buffer;
    const read = (k = key) =>
      readSealedContent(store, { storageKey: "k", dataKey: k, sizeBytes: plain.length }).then(collect);
    const flipped = Buffer.from(good);
    flipped.writeUInt8(flipped.readUInt8(SEALED_HEADER_BYTES + C + 20) ^ 1, SEALED_HEADER_BYTES + C + 20);
    store.objects.set("k", flipped);
    await expect(read()).rejects.toBeInstanceOf(SealedContentError);
    store.objects.set("k", good);
    await expect(read(randomBytes(32))).rejects.toBeInstanceOf(SealedContentError);
    // Cut after the second chunk: the second chunk is not sealed as the last one, so it cannot pass as the end.
    store.objects.set("k", good.subarray(0, SEALED_HEADER_BYTES + 2 * (C + 16)));
    await expect(
      readSealedContent(store, { storageKey: "k", dataKey: key, sizeBytes: 2 * C }).then(collect),
    ).rejects.toBeInstanceOf(SealedContentError);
    await store.put("other", sealContent(pieces(plain, 4_096), key));
    const swapped = Buffer.concat([(store.objects.get("other") as Buffer).subarray(0, 16), good.subarray(16)]);
    store.objects.set("k", swapped);
    await expect(read()).rejects.toBeInstanceOf(SealedContentError);
  });

  it("holds at most about one chunk while sealing a large stream", async () => {
    let produced = 0;
    async function* big(): AsyncGenerator<Uint8Array> {
      const piece = Buffer.alloc(16 * 1024, 7);
      for (let i = 0; i < 1280; i++) {
        produced += piece.length;
        yield piece;
      }
    }
    let consumed = 0;
    let maxAhead = 0;
    for await (const sealed of sealContent(big(), key)) {
      consumed += sealed.length;
      maxAhead = Math.max(maxAhead, produced - consumed);
    }
    expect(produced).toBe(20 * 1024 * 1024);
    expect(maxAhead).toBeLessThanOrEqual(2 * C + 16 * 1024);
  });
});
