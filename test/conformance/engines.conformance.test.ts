import { availableEngines, freshDatabase, openEngineStorage, openProbe } from "../support/engines.js";
import { runRaceConformance } from "./race-conformance.js";
import { runStorageConformance } from "./storage-conformance.js";

// The same suite, unchanged, on every engine this run has: SQLite always,
// PostgreSQL and MariaDB under .ci/with-databases.sh.
for (const engine of availableEngines()) {
  runStorageConformance(engine, async () => {
    const db = await freshDatabase(engine);
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
  runRaceConformance(engine, async () => {
    const db = await freshDatabase(engine);
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
