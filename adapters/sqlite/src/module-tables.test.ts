import { kyselyModules } from "@openpractice/kysely";
import { sql } from "kysely";
import { describe, expect, it } from "vitest";
import { createSqliteStorage } from "./sqlite-storage.js";

describe("kysely modules", () => {
  it("own every table the migrations create, each table exactly once", async () => {
    const storage = await createSqliteStorage({ filename: ":memory:" });
    try {
      const { rows } = await sql<{ name: string }>`select name from sqlite_master where type = 'table'`.execute(
        storage.db,
      );
      const owned = kyselyModules.flatMap((m) => m.tables as readonly string[]);
      expect(new Set(owned).size).toBe(owned.length);
      // Kysely's own bookkeeping, SQLite's internals and the engine's search index (003-sqlite) have no module.
      const created = rows
        .map((r) => r.name)
        .filter(
          (name) => !name.startsWith("kysely_") && !name.startsWith("sqlite_") && !name.startsWith("patients_search"),
        );
      expect([...created].sort()).toEqual([...owned].sort());
    } finally {
      await storage.close();
    }
  });
});
