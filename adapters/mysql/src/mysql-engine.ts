import type { StorageEngine, StorageEngineOptions } from "@openpractice/core";
import { serverAddressOf } from "@openpractice/kysely";
import { createMysqlStorage } from "./mysql-storage.js";

/** MySQL 8 and MariaDB 10.6+: `mysql://user:password@host:3306/database`. */
export const mysqlEngine: StorageEngine = Object.freeze({
  name: "mysql",
  displayName: "MySQL/MariaDB",
  kind: "server",
  schemes: ["mysql://"],
  open: (url: string, options?: StorageEngineOptions) =>
    createMysqlStorage({
      url,
      readUrls: options?.readUrls,
      readYourWritesMs: options?.readYourWritesMs,
      onReplicaDown: options?.onReplicaDown,
    }),
  describeLocation: (url: string) => serverAddressOf(url, 3306),
});
