/**
 * Whether an S3 call failed because the object is not there: `NoSuchKey` from GetObject, or a bare 404 (HEAD-style
 * answers and some S3-compatible servers carry no error code in the body).
 */
export function isMissingObject(error: unknown): boolean {
  const e = error as { name?: string; Code?: string; $metadata?: { httpStatusCode?: number } } | null;
  return (
    e?.name === "NoSuchKey" || e?.Code === "NoSuchKey" || e?.name === "NotFound" || e?.$metadata?.httpStatusCode === 404
  );
}
