import { describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";

describe("the documents' variables", () => {
  it("keep documents under the data directory unless S3 is asked for, which needs a bucket", () => {
    expect(loadConfig({ OPENPRACTICE_DATA_DIR: "/srv/op/" }).documentStore).toEqual({
      kind: "filesystem",
      directory: "/srv/op/documents",
    });
    expect(loadConfig({ OPENPRACTICE_DOCUMENTS_DIR: "/mnt/docs" }).documentStore).toMatchObject({
      directory: "/mnt/docs",
    });
    expect(() => loadConfig({ OPENPRACTICE_DOCUMENT_STORE: "s3" })).toThrow(/^OPENPRACTICE_S3_BUCKET: is required/);
    expect(
      loadConfig({
        OPENPRACTICE_DOCUMENT_STORE: "s3",
        OPENPRACTICE_S3_BUCKET: "clinic-docs",
        OPENPRACTICE_S3_ENDPOINT: "http://127.0.0.1:9000",
        OPENPRACTICE_S3_FORCE_PATH_STYLE: "true",
      }).documentStore,
    ).toEqual({
      kind: "s3",
      bucket: "clinic-docs",
      region: "us-east-1",
      endpoint: "http://127.0.0.1:9000",
      prefix: "",
      forcePathStyle: true,
    });
    expect(() => loadConfig({ OPENPRACTICE_DOCUMENT_STORE: "disk" })).toThrow(/^OPENPRACTICE_DOCUMENT_STORE: /);
  });

  it("read OPENPRACTICE_CLAMD as tcp://host:port, unix:/path or an absolute path", () => {
    expect(loadConfig({}).clamd).toBeUndefined();
    expect(loadConfig({ OPENPRACTICE_CLAMD: "tcp://127.0.0.1:3310" }).clamd).toEqual({
      host: "127.0.0.1",
      port: 3310,
      timeoutMs: 60_000,
    });
    expect(loadConfig({ OPENPRACTICE_CLAMD: "tcp://[::1]:3310", OPENPRACTICE_CLAMD_TIMEOUT_MS: "5000" }).clamd).toEqual(
      {
        host: "::1",
        port: 3310,
        timeoutMs: 5000,
      },
    );
    expect(loadConfig({ OPENPRACTICE_CLAMD: "unix:/run/clamav/clamd.ctl" }).clamd).toEqual({
      socketPath: "/run/clamav/clamd.ctl",
      timeoutMs: 60_000,
    });
    expect(() => loadConfig({ OPENPRACTICE_CLAMD: "clamd:3310" })).toThrow(/^OPENPRACTICE_CLAMD: must be tcp:\/\//);
    expect(() => loadConfig({ OPENPRACTICE_CLAMD: "tcp://h:70000" })).toThrow(/out of range/);
  });
});
