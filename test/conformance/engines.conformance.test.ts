import { availableEngines, engineLabel, freshDatabase, openEngineStorage, openProbe } from "../support/engines.js";
import { runRaceConformance, runStorageConformance } from "@openpractice/testing";

// The kit's suite (@openpractice/testing), unchanged, on a database file of every engine this run has: SQLite always,
// PostgreSQL and MariaDB under .ci/with-databases.sh. The SQLite package also runs it from its own test (in memory).
// Each test starts on a database of its own (on PostgreSQL a copy of one migrated once for this file). The suites'
// titles name the server's version (`postgres 18.4`): CI runs this file on two PostgreSQL versions.
for (const engine of availableEngines()) {
  runStorageConformance(engineLabel(engine), async () => {
    const db = await freshDatabase(engine, { migrated: true });
    const storage = await openEngineStorage(engine, db.url);
    const probe = await openProbe(engine, db.url);
    return {
      storage,
      probe,
      async dispose() {
        await probe.close();
        await storage.close().catch(() => undefined);
        await db.drop();
      },
    };
  });
  runRaceConformance(engineLabel(engine), async () => {
    const db = await freshDatabase(engine, { migrated: true });
    const storage = await openEngineStorage(engine, db.url);
    return {
      storage,
      async dispose() {
        await storage.close().catch(() => undefined);
        await db.drop();
      },
    };
  });
}
