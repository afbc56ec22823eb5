import { S3Client } from "@aws-sdk/client-s3";
import type { DocumentStore } from "@openpractice/core";
import { FileSystemDocumentStore } from "@openpractice/files";
import { S3DocumentStore } from "@openpractice/s3";
import type { DocumentStoreConfig } from "./config/documents-config.js";

/**
 * The document store the configuration names: the filesystem under the data directory (the default), or an S3
 * bucket through the AWS SDK's client, whose credentials come from its default chain (AWS_ACCESS_KEY_ID and
 * AWS_SECRET_ACCESS_KEY, a profile, an instance role).
 */
export function documentStoreOf(config: DocumentStoreConfig): DocumentStore {
  if (config.kind === "filesystem") return new FileSystemDocumentStore({ directory: config.directory });
  const client = new S3Client({
    region: config.region,
    forcePathStyle: config.forcePathStyle,
    ...(config.endpoint ? { endpoint: config.endpoint } : {}),
  });
  return new S3DocumentStore({ client, bucket: config.bucket, prefix: config.prefix });
}
