import { Readable } from "node:stream";
import {
  DeleteObjectCommand,
  GetObjectCommand,
  ListObjectsV2Command,
  type ListObjectsV2CommandOutput,
  type S3Client,
} from "@aws-sdk/client-s3";
import { Upload } from "@aws-sdk/lib-storage";
import {
  type ByteRange,
  type ByteStream,
  DOCUMENT_KEY_PATTERN,
  type DocumentStore,
  DocumentStoreMissingError,
  type StoredObject,
} from "@openpractice/core";
import { answeredStart, trimmedToRange } from "./range-answer.js";
import { isMissingObject } from "./s3-errors.js";

export interface S3DocumentStoreOptions {
  /** The client (region, endpoint, credentials); the caller owns it and destroys it. */
  client: S3Client;
  bucket: string;
  /**
   * Put before every key as is: `"documents/"` keeps the objects in that folder of a shared bucket. `list()` sees
   * only objects under it.
   */
  prefix?: string;
  /** Bytes per multipart part, and the most an upload buffers per part in flight; default 8 MiB (S3's minimum is 5). */
  partSize?: number;
  /** Parts uploaded at once; default 2. An upload holds at most about (queueSize + 1) × partSize in memory. */
  queueSize?: number;
}

const MiB = 1024 * 1024;

/**
 * Core's DocumentStore port on S3 or an S3-compatible store (MinIO, Ceph, R2, ...). A put streams the content
 * through @aws-sdk/lib-storage's Upload: one PutObject when it fits a part, else a multipart upload that S3 makes
 * visible only when completed, and that is aborted when the stream or a part fails, so a failed put leaves neither
 * an object nor stored parts behind. (A process killed mid-upload cannot abort: give the bucket a lifecycle rule
 * that aborts incomplete multipart uploads after a day.)
 */
export class S3DocumentStore implements DocumentStore {
  readonly kind = "s3";
  readonly #client: S3Client;
  readonly #bucket: string;
  readonly #prefix: string;
  readonly #partSize: number;
  readonly #queueSize: number;

  constructor(options: S3DocumentStoreOptions) {
    if (!options?.client || !options.bucket) throw new TypeError("S3DocumentStore needs a client and a bucket");
    this.#client = options.client;
    this.#bucket = options.bucket;
    this.#prefix = options.prefix ?? "";
    this.#partSize = options.partSize ?? 8 * MiB;
    this.#queueSize = options.queueSize ?? 2;
  }

  async put(key: string, content: ByteStream): Promise<{ size: number }> {
    const objectKey = this.#objectKey(key);
    let size = 0;
    const counted = async function* () {
      for await (const chunk of content) {
        size += chunk.byteLength;
        yield chunk;
      }
    };
    const upload = new Upload({
      client: this.#client,
      params: { Bucket: this.#bucket, Key: objectKey, Body: Readable.from(counted(), { objectMode: false }) },
      partSize: this.#partSize,
      queueSize: this.#queueSize,
      leavePartsOnError: false,
    });
    await upload.done();
    return { size };
  }

  async get(key: string, range?: ByteRange): Promise<ByteStream> {
    const objectKey = this.#objectKey(key);
    if (range) checkRange(range);
    try {
      const answer = await this.#client.send(
        new GetObjectCommand({
          Bucket: this.#bucket,
          Key: objectKey,
          ...(range ? { Range: `bytes=${range.start}-${range.end}` } : {}),
        }),
      );
      const body = answer.Body as (Readable & AsyncIterable<Uint8Array>) | undefined;
      if (!body) throw new Error(`GetObject of ${objectKey} answered without a body`);
      if (!range) return body;
      const start = answeredStart(answer.ContentRange);
      const exact = start === range.start && answer.ContentLength === range.end - range.start + 1;
      return exact ? body : trimmedToRange(body, start, range);
    } catch (error) {
      if (isMissingObject(error)) throw new DocumentStoreMissingError(key);
      throw error;
    }
  }

  async delete(key: string): Promise<void> {
    const objectKey = this.#objectKey(key);
    try {
      await this.#client.send(new DeleteObjectCommand({ Bucket: this.#bucket, Key: objectKey }));
    } catch (error) {
      // S3 answers 204 for a missing key; an S3-compatible server may say 404.
      if (!isMissingObject(error)) throw error;
    }
  }

  async *list(): AsyncIterable<StoredObject> {
    let continuationToken: string | undefined;
    do {
      const page: ListObjectsV2CommandOutput = await this.#client.send(
        new ListObjectsV2Command({
          Bucket: this.#bucket,
          ...(this.#prefix ? { Prefix: this.#prefix } : {}),
          ...(continuationToken ? { ContinuationToken: continuationToken } : {}),
        }),
      );
      for (const object of page.Contents ?? []) {
        const key = object.Key?.slice(this.#prefix.length);
        // Objects under the prefix that this store did not write (another folder, another naming) are not listed.
        if (key === undefined || !DOCUMENT_KEY_PATTERN.test(key) || !object.LastModified) continue;
        yield { key, modifiedAt: object.LastModified };
      }
      continuationToken = page.IsTruncated ? page.NextContinuationToken : undefined;
    } while (continuationToken);
  }

  /** The bucket key of a store key, after checking it is one (so a key can never reach outside the prefix). */
  #objectKey(key: string): string {
    if (typeof key !== "string" || !DOCUMENT_KEY_PATTERN.test(key))
      throw new TypeError(`Not a document store key (letters, digits, - and _, at most 64): ${JSON.stringify(key)}`);
    return this.#prefix + key;
  }
}

function checkRange(range: ByteRange): void {
  const { start, end } = range;
  if (!Number.isSafeInteger(start) || !Number.isSafeInteger(end) || start < 0 || end < start)
    throw new RangeError(`Not a byte range: ${start}-${end}`);
}
