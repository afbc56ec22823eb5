import { readdir, readFile, rm } from "node:fs/promises";
import { join } from "node:path";

/** The slice of Koa's context the calls below read and write (s3rver is a Koa application). */
interface KoaContext {
  method: string;
  path: string;
  query: Record<string, string | string[] | undefined>;
  status: number;
  body: unknown;
  type: string;
}

/**
 * The two multipart calls s3rver 3.7 lacks, done on its own storage so the tests can see an aborted upload go: it
 * answers AbortMultipartUpload (DELETE ?uploadId) with 405 and ListMultipartUploads (GET ?uploads) with
 * NotImplemented, and keeps each unfinished upload's parts in `<bucket>/._S3rver_uploads/<uploadId>/` (with a `key`
 * file). Everything else is s3rver's own. Test support only, path-style addressing only.
 */
export function s3rverMultipartCalls(rootDirectory: string) {
  const uploadsOf = (bucket: string) => join(rootDirectory, bucket, "._S3rver_uploads");
  return async (ctx: KoaContext, next: () => Promise<unknown>) => {
    const [, bucket = "", ...key] = ctx.path.split("/");
    const uploadId = ctx.query.uploadId;
    if (ctx.method === "DELETE" && key.length > 0 && typeof uploadId === "string") {
      if (!/^[0-9a-f]+$/.test(uploadId)) {
        ctx.status = 404;
        return;
      }
      await rm(join(uploadsOf(bucket), uploadId), { recursive: true, force: true });
      ctx.status = 204;
      return;
    }
    if (ctx.method === "GET" && key.filter(Boolean).length === 0 && "uploads" in ctx.query) {
      const ids = await readdir(uploadsOf(bucket)).catch(() => [] as string[]);
      const uploads = await Promise.all(
        ids.map(async (id) => {
          const uploadKey = await readFile(join(uploadsOf(bucket), id, "key"), "utf8").catch(() => "");
          return `<Upload><Key>${escapeXml(uploadKey)}</Key><UploadId>${id}</UploadId></Upload>`;
        }),
      );
      ctx.type = "application/xml";
      ctx.body = `<?xml version="1.0" encoding="UTF-8"?><ListMultipartUploadsResult><Bucket>${escapeXml(bucket)}</Bucket><IsTruncated>false</IsTruncated>${uploads.join("")}</ListMultipartUploadsResult>`;
      return;
    }
    return next();
  };
}

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c] ?? c);
