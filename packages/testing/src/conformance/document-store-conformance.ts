import { randomBytes } from "node:crypto";
import { DOCUMENT_KEY_PATTERN, type DocumentStore, DocumentStoreMissingError } from "@openpractice/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { checkPattern, patternStream } from "./byte-pattern.js";
import { KIT_TIMEOUT_MS, type KitTimeoutOptions } from "./kit-timeouts.js";

/** A store under test, and how to remove what it made (a temporary directory, a bucket, a server). */
export interface DocumentStoreFixture {
  store: DocumentStore;
  cleanup?: () => Promise<void>;
}

const KiB = 1024;
const MiB = 1024 * KiB;
/** The size of the large object: bigger than one 8 MiB multipart part, made of about 200 chunks. */
const LARGE = 12 * MiB + 12_345;

/** A fresh key of the shape core makes: 22 random base64url characters. */
export function randomDocumentKey(): string {
  return randomBytes(16).toString("base64url");
}

/** Every key `list` yields right now. */
async function listedKeys(store: DocumentStore): Promise<Map<string, Date>> {
  const found = new Map<string, Date>();
  for await (const object of store.list()) found.set(object.key, object.modifiedAt);
  return found;
}

async function expectMissing(promise: Promise<unknown>, key: string): Promise<void> {
  const error = await promise.then(
    () => null,
    (e: unknown) => e,
  );
  expect(error, `get of ${key} should reject`).toBeInstanceOf(DocumentStoreMissingError);
  expect((error as DocumentStoreMissingError).key).toBe(key);
}

/**
 * The contract of core's DocumentStore port (its comment in @openpractice/core), run against an adapter: bytes
 * round-trip at several sizes (1 byte to 12 MiB over ~200 chunks, generated lazily and checked as they stream back),
 * inclusive ranges, the missing-key error, idempotent delete, a failing upload leaving nothing readable or listed,
 * and `list` with write times. `makeStore` is called once for the suite and `cleanup` once after it; every test uses
 * fresh random keys, so the store may hold other objects. Adapter-specific leftovers of a failed upload (a partial
 * file, an unfinished multipart upload) are for the adapter's own tests to check. The suite sets its own timeouts
 * (`options.timeoutMs`, default 60 s a test and a fixture hook).
 */
export function describeDocumentStoreConformance(
  name: string,
  makeStore: () => Promise<DocumentStoreFixture>,
  options: KitTimeoutOptions = {},
): void {
  const timeout = options.timeoutMs ?? KIT_TIMEOUT_MS;
  describe(`document store conformance [${name}]`, { timeout }, () => {
    let fixture: DocumentStoreFixture;
    let store: DocumentStore;
    beforeAll(async () => {
      fixture = await makeStore();
      store = fixture.store;
    }, timeout);
    afterAll(async () => {
      await fixture?.cleanup?.();
    }, timeout);

    it("names its kind", () => {
      expect(store.kind).toMatch(/^[a-z0-9-]+$/);
    });

    for (const [label, size] of [
      ["1 byte", 1],
      ["64 KiB + 1", 64 * KiB + 1],
      ["12 MiB over about 200 chunks", LARGE],
    ] as const) {
      it(`round-trips ${label}: put resolves with the size, get streams the same bytes`, async () => {
        const key = randomDocumentKey();
        const seed = size;
        await expect(store.put(key, patternStream({ size, seed }))).resolves.toEqual({ size });
        const back = await checkPattern(await store.get(key), seed);
        expect(back).toMatchObject({ size, firstMismatch: null });
        await store.delete(key);
      });
    }

    it("streams a large object back in more than one chunk (never one buffer of the whole)", async () => {
      const key = randomDocumentKey();
      await store.put(key, patternStream({ size: LARGE, seed: 7 }));
      const back = await checkPattern(await store.get(key), 7);
      expect(back.firstMismatch).toBeNull();
      expect(back.chunks).toBeGreaterThan(1);
      await store.delete(key);
    });

    it("takes keys of every allowed character and length (1 and 64 characters, `-` and `_`)", async () => {
      const keys = ["Z", "a-_", `${"-_aZ09".repeat(10)}Ab_-`, randomDocumentKey().toUpperCase()];
      for (const key of keys) {
        expect(key).toMatch(DOCUMENT_KEY_PATTERN);
        await store.put(key, patternStream({ size: 100, seed: key.length }));
      }
      for (const key of keys) {
        expect(await checkPattern(await store.get(key), key.length)).toMatchObject({ size: 100, firstMismatch: null });
        await store.delete(key);
      }
    });

    it("keeps concurrent puts of different keys apart", async () => {
      const keys = Array.from({ length: 6 }, () => randomDocumentKey());
      const sizes = keys.map((_, i) => 100 * KiB + i * 777);
      await Promise.all(keys.map((key, i) => store.put(key, patternStream({ size: sizes[i] ?? 1, seed: 100 + i }))));
      for (const [i, key] of keys.entries()) {
        const back = await checkPattern(await store.get(key), 100 + i);
        expect(back).toMatchObject({ size: sizes[i], firstMismatch: null });
        await store.delete(key);
      }
    });

    describe("ranges (inclusive, as HTTP's bytes=start-end)", () => {
      const key = randomDocumentKey();
      const size = 300 * KiB + 5;
      const seed = 42;
      beforeAll(async () => {
        // Chunks of 1,000 bytes: every span below crosses the boundaries the object was written in.
        await store.put(key, patternStream({ size, seed, chunkSizes: [1_000] }));
      }, timeout);
      afterAll(async () => {
        await store.delete(key);
      }, timeout);

      for (const [label, start, end] of [
        ["the first byte", 0, 0],
        ["the last byte", size - 1, size - 1],
        ["a middle span crossing many chunk boundaries", 999, 200_001],
        ["two bytes across a chunk boundary", 1_999, 2_000],
        ["the whole object", 0, size - 1],
      ] as const) {
        it(`reads ${label} (${start}-${end})`, async () => {
          const back = await checkPattern(await store.get(key, { start, end }), seed, start);
          expect(back).toMatchObject({ size: end - start + 1, firstMismatch: null });
        });
      }

      it("reads a range of a large object across 8 MiB (a multipart part boundary)", async () => {
        const large = randomDocumentKey();
        await store.put(large, patternStream({ size: LARGE, seed: 9 }));
        const start = 8 * MiB - 10;
        const end = 8 * MiB + 65_536;
        const back = await checkPattern(await store.get(large, { start, end }), 9, start);
        expect(back).toMatchObject({ size: end - start + 1, firstMismatch: null });
        await store.delete(large);
      });
    });

    describe("missing keys", () => {
      it("get of a key never written rejects with DocumentStoreMissingError", async () => {
        const key = randomDocumentKey();
        await expectMissing(store.get(key), key);
        await expectMissing(store.get(key, { start: 0, end: 9 }), key);
      });

      it("get after delete rejects with DocumentStoreMissingError, and list no longer shows the key", async () => {
        const key = randomDocumentKey();
        await store.put(key, patternStream({ size: 10, seed: 1 }));
        await store.delete(key);
        await expectMissing(store.get(key), key);
        expect((await listedKeys(store)).has(key)).toBe(false);
      });

      it("delete is idempotent: a key never written, and the same key twice", async () => {
        const key = randomDocumentKey();
        await expect(store.delete(randomDocumentKey())).resolves.toBeUndefined();
        await store.put(key, patternStream({ size: 10, seed: 2 }));
        await expect(store.delete(key)).resolves.toBeUndefined();
        await expect(store.delete(key)).resolves.toBeUndefined();
      });
    });

    describe("a stream that fails leaves nothing under the key", () => {
      for (const [label, failAt, size] of [
        ["before its first chunk", 0, 10 * KiB],
        ["after 100 KiB", 100 * KiB, 1 * MiB],
        ["after 9 MiB (past one multipart part)", 9 * MiB, LARGE],
      ] as const) {
        it(`${label}: put rejects, get finds nothing, list does not show the key`, async () => {
          const key = randomDocumentKey();
          const error = new Error(`the source failed ${label}`);
          const outcome = await store
            .put(key, patternStream({ size, seed: 3, failAfter: { bytes: failAt, error } }))
            .then(
              () => "resolved",
              () => "rejected",
            );
          expect(outcome).toBe("rejected");
          await expectMissing(store.get(key), key);
          expect((await listedKeys(store)).has(key)).toBe(false);
          // The key stays usable: core never reuses one, but a retry of the same upload must not trip on leftovers.
          await store.put(key, patternStream({ size: 10, seed: 4 }));
          expect(await checkPattern(await store.get(key), 4)).toMatchObject({ size: 10, firstMismatch: null });
          await store.delete(key);
        });
      }
    });

    describe("list", () => {
      it("yields each complete object with a write time close to now, and not deleted ones", async () => {
        const before = Date.now();
        const keys = [randomDocumentKey(), randomDocumentKey(), randomDocumentKey()];
        for (const key of keys) await store.put(key, patternStream({ size: 2 * KiB, seed: 5 }));
        const after = Date.now();
        const listed = await listedKeys(store);
        for (const key of keys) {
          const modifiedAt = listed.get(key);
          expect(modifiedAt, `list shows ${key}`).toBeInstanceOf(Date);
          // A store's clock may count in whole seconds (S3's Last-Modified) and differ a little from this one.
          expect(modifiedAt?.getTime()).toBeGreaterThanOrEqual(before - 60_000);
          expect(modifiedAt?.getTime()).toBeLessThanOrEqual(after + 60_000);
        }
        for (const key of listed.keys()) expect(key).toMatch(DOCUMENT_KEY_PATTERN);
        await store.delete(keys[0] ?? "");
        const again = await listedKeys(store);
        expect(again.has(keys[0] ?? "")).toBe(false);
        expect(again.has(keys[1] ?? "")).toBe(true);
        for (const key of keys) await store.delete(key);
      });
    });
  });
}
