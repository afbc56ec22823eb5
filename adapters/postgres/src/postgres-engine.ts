import type { StorageEngine, StorageEngineOptions } from "@openpractice/core";
import { serverAddressOf } from "@openpractice/kysely";
import { createPostgresStorage } from "./postgres-storage.js";

/** PostgreSQL 13+: `postgres://user:password@host:5432/database` (or `postgresql://`). */
export const postgresEngine: StorageEngine = Object.freeze({
  name: "postgres",
  displayName: "PostgreSQL",
  kind: "server",
  schemes: ["postgres://", "postgresql://"],
  open: (url: string, options?: StorageEngineOptions) => createPostgresStorage({ ...options, url }),
  describeLocation: (url: string) => serverAddressOf(url, 5432),
});
