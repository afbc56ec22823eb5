import { runRaceConformance, runStorageConformance, sharedSchemaProbe, type StorageProbe } from "@openpractice/testing";
import { sql } from "kysely";
import { createSqliteStorage } from "./sqlite-storage.js";

/** The suite's probe on SQLite: the shared schema's rows, read with plain SQL beside the repositories. */
function sqliteProbe(storage: Awaited<ReturnType<typeof createSqliteStorage>>): StorageProbe {
  return sharedSchemaProbe(async (table, where = {}) => {
    if (!/^[a-z_]+$/.test(table)) throw new Error(`bad table ${table}`);
    const keys = Object.keys(where);
    const clause = keys.length
      ? sql` where ${sql.join(
          keys.map((k) => sql`${sql.ref(k)} = ${where[k]}`),
          sql` and `,
        )}`
      : sql``;
    const { rows } = await sql<Record<string, unknown>>`select * from ${sql.table(table)}${clause}`.execute(storage.db);
    return rows;
  });
}

// The adapter kit's suites run from this package, as any engine package runs them: a fresh in-memory database each.
runStorageConformance("sqlite", async () => {
  const storage = await createSqliteStorage({ filename: ":memory:" });
  return { storage, probe: sqliteProbe(storage), dispose: () => storage.close() };
});

runRaceConformance("sqlite", async () => {
  const storage = await createSqliteStorage({ filename: ":memory:" });
  return { storage, dispose: () => storage.close() };
});
