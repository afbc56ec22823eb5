import { ConfigError } from "./config-error.js";

/** Where the runtime keeps patient documents' sealed bytes. */
export type DocumentStoreConfig =
  | { readonly kind: "filesystem"; readonly directory: string }
  | {
      readonly kind: "s3";
      readonly bucket: string;
      readonly region: string;
      /** An S3-compatible endpoint (MinIO, Ceph); undefined: AWS S3. */
      readonly endpoint: string | undefined;
      readonly prefix: string;
      readonly forcePathStyle: boolean;
    };

/** The clamd the runtime scans uploads with; undefined: documents are served unscanned. */
export type ClamdConfig =
  | { readonly host: string; readonly port: number; readonly timeoutMs: number }
  | { readonly socketPath: string; readonly timeoutMs: number };

/** The variables of documents, for config.ts's schema (fastest-validator). */
export const DOCUMENT_VARIABLES = {
  OPENPRACTICE_DOCUMENT_STORE: { type: "enum", values: ["filesystem", "s3"], optional: true },
  OPENPRACTICE_DOCUMENTS_DIR: { type: "string", empty: false, optional: true },
  OPENPRACTICE_S3_BUCKET: { type: "string", empty: false, optional: true },
  OPENPRACTICE_S3_REGION: { type: "string", empty: false, optional: true },
  OPENPRACTICE_S3_ENDPOINT: { type: "url", optional: true },
  OPENPRACTICE_S3_PREFIX: { type: "string", pattern: /^[A-Za-z0-9!_.*'()/-]*$/, optional: true },
  OPENPRACTICE_S3_FORCE_PATH_STYLE: { type: "enum", values: ["true", "false"], optional: true },
  OPENPRACTICE_CLAMD: { type: "string", empty: false, optional: true },
  OPENPRACTICE_CLAMD_TIMEOUT_MS: {
    type: "number",
    integer: true,
    min: 1000,
    max: 600_000,
    convert: true,
    optional: true,
  },
} as const;

/** The document store from the variables: the filesystem under the data directory unless s3 is asked for. */
export function documentStoreConfig(input: Record<string, unknown>, dataDir: string): DocumentStoreConfig {
  if (input.OPENPRACTICE_DOCUMENT_STORE !== "s3")
    return Object.freeze({
      kind: "filesystem",
      directory: (input.OPENPRACTICE_DOCUMENTS_DIR as string | undefined) ?? `${dataDir.replace(/\/+$/, "")}/documents`,
    });
  const bucket = input.OPENPRACTICE_S3_BUCKET as string | undefined;
  if (!bucket) throw new ConfigError("OPENPRACTICE_S3_BUCKET: is required with OPENPRACTICE_DOCUMENT_STORE=s3");
  return Object.freeze({
    kind: "s3",
    bucket,
    region: (input.OPENPRACTICE_S3_REGION as string | undefined) ?? "us-east-1",
    endpoint: input.OPENPRACTICE_S3_ENDPOINT as string | undefined,
    prefix: (input.OPENPRACTICE_S3_PREFIX as string | undefined) ?? "",
    forcePathStyle: input.OPENPRACTICE_S3_FORCE_PATH_STYLE === "true",
  });
}

/** OPENPRACTICE_CLAMD: `tcp://host:port`, `unix:/path` or an absolute socket path. */
export function clamdConfig(input: Record<string, unknown>): ClamdConfig | undefined {
  const value = input.OPENPRACTICE_CLAMD as string | undefined;
  if (!value) return undefined;
  const timeoutMs = (input.OPENPRACTICE_CLAMD_TIMEOUT_MS as number | undefined) ?? 60_000;
  const tcp = /^tcp:\/\/(\[[^\]]+\]|[^:/]+):(\d{1,5})\/?$/.exec(value);
  if (tcp) {
    const port = Number(tcp[2]);
    if (port < 1 || port > 65535) throw new ConfigError(`OPENPRACTICE_CLAMD: port ${port} is out of range`);
    return Object.freeze({ host: (tcp[1] as string).replace(/^\[|\]$/g, ""), port, timeoutMs });
  }
  const socketPath = value.startsWith("unix:") ? value.slice("unix:".length) : value;
  if (!socketPath.startsWith("/"))
    throw new ConfigError(
      `OPENPRACTICE_CLAMD: must be tcp://host:port, unix:/path/to/clamd.ctl or an absolute socket path (got '${value}')`,
    );
  return Object.freeze({ socketPath, timeoutMs });
}
