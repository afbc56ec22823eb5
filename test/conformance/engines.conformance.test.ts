import { availableEngines, freshDatabase, openEngineStorage, openProbe } from "../support/engines.js";
import { runRaceConformance, runStorageConformance } from "@openpractice/testing";

// The kit's suite (@openpractice/testing), unchanged, on the server engines this run has: PostgreSQL and MariaDB
// under .ci/with-databases.sh. SQLite runs the same suite from its own package (adapters/sqlite/src/*.conformance.test.ts).
for (const engine of availableEngines().filter((e) => e !== "sqlite")) {
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
