import type { StorageEngine } from "@openpractice/core";
import { createSqliteStorage, sqliteFilenameFromUrl } from "./sqlite-storage.js";

/** The embedded default: `sqlite:./data/x.db` (relative) or `sqlite:/srv/x.db` (absolute). */
export const sqliteEngine: StorageEngine = Object.freeze({
  name: "sqlite",
  displayName: "SQLite",
  kind: "file",
  schemes: ["sqlite:"],
  open: (url: string) => createSqliteStorage({ filename: sqliteFilenameFromUrl(url) }),
  describeLocation: (url: string) => sqliteFilenameFromUrl(url),
});
