/**
 * Bytes as a stream of chunks: a Node Readable, a web ReadableStream (Node 22+ iterates both) or an async
 * generator. Core never holds a whole document in memory; every port passes content this way.
 */
export type ByteStream = AsyncIterable<Uint8Array>;

/** An inclusive byte range of a stored object, as HTTP's Range header counts (`bytes=start-end`). */
export interface ByteRange {
  readonly start: number;
  readonly end: number;
}

/** One stored object, as the orphan sweep lists them. */
export interface StoredObject {
  readonly key: string;
  /** When the object was last written (the store's own clock). */
  readonly modifiedAt: Date;
}

/**
 * Where patient documents' bytes live (already sealed by core: a store sees ciphertext only). Keys are random
 * ids made by core (letters, digits, `-` and `_`, at most 64 characters), never names or patient data.
 *
 * The contract (packages/testing's documentStoreConformance runs it against every adapter):
 * - `put` writes the whole stream under `key` and resolves with its size once the object is readable; when the
 *   stream throws or the write fails it rejects and leaves nothing under `key` (no partial object is ever
 *   readable, listed or left behind).
 * - `get` streams the object's bytes, or the inclusive `range` of them; it rejects with DocumentStoreMissingError
 *   when there is no such object.
 * - `delete` removes the object; deleting a key that is not there is not an error.
 * - `list` yields every complete object (keys and their write times), in no particular order.
 */
export interface DocumentStore {
  /** A short name for logs and the health report: "filesystem", "s3". */
  readonly kind: string;
  put(key: string, content: ByteStream): Promise<{ size: number }>;
  get(key: string, range?: ByteRange): Promise<ByteStream>;
  delete(key: string): Promise<void>;
  list(): AsyncIterable<StoredObject>;
}

/** `get` of a key the store does not hold. */
export class DocumentStoreMissingError extends Error {
  override readonly name = "DocumentStoreMissingError";
  constructor(readonly key: string) {
    super(`No stored object under key ${key}`);
  }
}

/** The shape of a store key: what core makes (documentObjectKey), and all an adapter may assume. */
export const DOCUMENT_KEY_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;
