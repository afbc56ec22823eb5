import { readdir } from "node:fs/promises";
import { join } from "node:path";
import {
  AbortMultipartUploadCommand,
  CreateMultipartUploadCommand,
  ListMultipartUploadsCommand,
  ListObjectsV2Command,
} from "@aws-sdk/client-s3";
import {
  checkPattern,
  describeDocumentStoreConformance,
  patternStream,
  randomDocumentKey,
} from "@openpractice/testing";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { S3DocumentStore } from "./s3-document-store.js";
import { type S3rverFixture, startS3rver } from "./s3rver-fixture.js";

const MiB = 1024 * 1024;

describeDocumentStoreConformance("s3 (s3rver)", async () => {
  const s3 = await startS3rver();
  return {
    store: new S3DocumentStore({ client: s3.client, bucket: s3.bucket, prefix: "documents/" }),
    cleanup: () => s3.stop(),
  };
});

describe("S3DocumentStore on s3rver", { timeout: 120_000 }, () => {
  let s3: S3rverFixture;
  let store: S3DocumentStore;
  /** The commands the client sent, by name. */
  const sent: string[] = [];
  beforeAll(async () => {
    s3 = await startS3rver();
    store = new S3DocumentStore({ client: s3.client, bucket: s3.bucket, prefix: "practice-1/" });
    s3.client.middlewareStack.add(
      (next, context) => (args) => {
        sent.push(context.commandName ?? "?");
        return next(args);
      },
      { step: "initialize", name: "recordCommandNames" },
    );
  }, 60_000);
  afterAll(async () => {
    await s3?.stop();
  });

  /** s3rver's unfinished multipart uploads (it answers no ListMultipartUploads; its directory says). */
  const unfinishedUploads = async () =>
    readdir(join(s3.bucketDirectory, "._S3rver_uploads")).catch((e: NodeJS.ErrnoException) => {
      if (e.code === "ENOENT") return [];
      throw e;
    });

  it("puts 20 MiB as a multipart upload of three 8 MiB parts and reads it back", async () => {
    const key = randomDocumentKey();
    const size = 20 * MiB + 3;
    sent.length = 0;
    let started = performance.now();
    await expect(store.put(key, patternStream({ size, seed: 20 }))).resolves.toEqual({ size });
    const putMs = performance.now() - started;
    started = performance.now();
    expect(await checkPattern(await store.get(key), 20)).toMatchObject({ size, firstMismatch: null });
    const getMs = performance.now() - started;
    console.info(`s3rver: 20 MiB put ${putMs.toFixed(0)} ms, get ${getMs.toFixed(0)} ms`);
    expect(await unfinishedUploads()).toEqual([]);
    // 8 + 8 + 4 MiB (s3rver's ETag of a multipart object has no part count, so the client's calls are counted).
    expect(sent.filter((name) => name === "UploadPartCommand")).toHaveLength(3);
    expect(sent.filter((name) => name === "CompleteMultipartUploadCommand")).toHaveLength(1);
    await store.delete(key);
  });

  it("aborts the multipart upload of a stream that fails after two parts: no object, no stored parts", async () => {
    const key = randomDocumentKey();
    const failing = patternStream({ size: 30 * MiB, seed: 1, failAfter: { bytes: 17 * MiB, error: new Error("cut") } });
    sent.length = 0;
    await expect(store.put(key, failing)).rejects.toThrow();
    expect(sent.filter((name) => name === "UploadPartCommand")).toHaveLength(2);
    expect(sent).toContain("AbortMultipartUploadCommand");
    const listed = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: `practice-1/${key}` }));
    expect(listed.KeyCount ?? 0).toBe(0);
    expect(await unfinishedUploads()).toEqual([]);
    const uploads = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket }));
    expect(uploads.Uploads ?? []).toEqual([]);
  });

  it("the test server lists an unfinished upload (so the abort test's empty list means something)", async () => {
    const key = `practice-1/${randomDocumentKey()}`;
    const started = await s3.client.send(new CreateMultipartUploadCommand({ Bucket: s3.bucket, Key: key }));
    const uploads = await s3.client.send(new ListMultipartUploadsCommand({ Bucket: s3.bucket }));
    expect(uploads.Uploads?.map((u) => u.Key)).toEqual([key]);
    await s3.client.send(new AbortMultipartUploadCommand({ Bucket: s3.bucket, Key: key, UploadId: started.UploadId }));
    expect(await unfinishedUploads()).toEqual([]);
  });

  it("keys objects under its prefix and lists only those", async () => {
    const key = randomDocumentKey();
    await store.put(key, patternStream({ size: 10, seed: 1 }));
    const other = new S3DocumentStore({ client: s3.client, bucket: s3.bucket, prefix: "practice-2/" });
    const otherKey = randomDocumentKey();
    await other.put(otherKey, patternStream({ size: 10, seed: 1 }));
    const raw = await s3.client.send(new ListObjectsV2Command({ Bucket: s3.bucket, Prefix: "practice-1/" }));
    expect(raw.Contents?.map((o) => o.Key)).toContain(`practice-1/${key}`);
    const listed = [];
    for await (const object of store.list()) listed.push(object.key);
    expect(listed).toContain(key);
    expect(listed).not.toContain(otherKey);
  });

  it("refuses keys outside the port's pattern", async () => {
    for (const key of ["", "../x", "a/b", "x".repeat(65)]) await expect(store.get(key)).rejects.toThrow(TypeError);
  });
});
