import type { StorageEngine, StorageEngineOptions } from "@openpractice/core";
import { createSqliteStorage, sqliteFilenameFromUrl } from "./sqlite-storage.js";

/** The embedded default: `sqlite:./data/x.db` (relative) or `sqlite:/srv/x.db` (absolute). */
export const sqliteEngine: StorageEngine = Object.freeze({
  name: "sqlite",
  displayName: "SQLite",
  kind: "file",
  schemes: ["sqlite:"],
  open: async (url: string, options?: StorageEngineOptions) => {
    // One file, one writer: there is nothing a replica could stream from.
    if (options?.readUrls?.length) throw new Error("SQLite has no read replicas: unset DATABASE_READ_URL");
    return createSqliteStorage({ filename: sqliteFilenameFromUrl(url) });
  },
  describeLocation: (url: string) => sqliteFilenameFromUrl(url),
});
