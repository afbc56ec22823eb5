import { mkdtemp, rm } from "node:fs/promises";
import type { AddressInfo } from "node:net";
import os from "node:os";
import { join } from "node:path";
import { S3Client } from "@aws-sdk/client-s3";
// @ts-expect-error s3rver ships no types (the tests use its constructor, middleware list, run and close only)
import S3rver from "s3rver";
import { s3rverMultipartCalls } from "./s3rver-multipart-calls.js";

/**
 * A real S3-compatible server (s3rver, in this process) on a free port of 127.0.0.1, its data in a temporary
 * directory, with one bucket; AbortMultipartUpload and ListMultipartUploads filled in (s3rver-multipart-calls.ts).
 */
export interface S3rverFixture {
  client: S3Client;
  bucket: string;
  /** The server's URL (http://127.0.0.1:port), for a client made elsewhere (the runtime's OPENPRACTICE_S3_ENDPOINT). */
  endpoint: string;
  /** Where s3rver keeps the bucket's files: its unfinished multipart uploads are in `._S3rver_uploads`. */
  bucketDirectory: string;
  stop(): Promise<void>;
}

export async function startS3rver(bucket = "documents"): Promise<S3rverFixture> {
  const directory = await mkdtemp(join(os.tmpdir(), "openpractice-s3rver-"));
  const server = new S3rver({
    address: "127.0.0.1",
    port: 0, // a free port, read back below
    directory,
    silent: true,
    configureBuckets: [{ name: bucket }],
  });
  server.middleware.unshift(s3rverMultipartCalls(directory));
  const { port } = (await server.run()) as AddressInfo;
  const client = new S3Client({
    endpoint: `http://127.0.0.1:${port}`,
    region: "us-east-1",
    forcePathStyle: true,
    credentials: { accessKeyId: "S3RVER", secretAccessKey: "S3RVER" },
  });
  return {
    client,
    bucket,
    endpoint: `http://127.0.0.1:${port}`,
    bucketDirectory: join(directory, bucket),
    async stop() {
      client.destroy();
      await server.close();
      await rm(directory, { recursive: true, force: true });
    },
  };
}
