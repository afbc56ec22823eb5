import { join } from "node:path";
import { createSqliteStorage } from "@openpractice/sqlite";
import BetterSqlite3 from "better-sqlite3";
import { makeTempDir } from "../support/temp-dir.js";
import { runStorageConformance, type StorageFixture } from "./storage-conformance.js";

/** Probes read the file with a second, independent better-sqlite3 connection. */
async function sqliteFixture(): Promise<StorageFixture> {
  const temp = makeTempDir("openpractice-sqlite-");
  const file = join(temp.dir, "conformance.db");
  const storage = await createSqliteStorage({ filename: file });
  const raw = new BetterSqlite3(file, { readonly: true });
  return {
    storage,
    probe: {
      async rows(table, where = {}) {
        if (!/^[a-z_]+$/.test(table)) throw new Error(`bad table ${table}`);
        const keys = Object.keys(where);
        const clause = keys.length ? ` where ${keys.map((k) => `${k} = ?`).join(" and ")}` : "";
        return raw.prepare(`select * from ${table}${clause}`).all(...keys.map((k) => where[k])) as Record<string, unknown>[];
      },
    },
    async dispose() {
      raw.close();
      await storage.close().catch(() => undefined);
      temp.remove();
    },
  };
}

runStorageConformance("sqlite", sqliteFixture);
