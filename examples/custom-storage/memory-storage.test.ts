import { MemoryStorage, runRaceConformance, runStorageConformance } from "@openpractice/testing";

// The in-memory storage of the adapter kit against the same contract every engine meets, as an outside adapter
// author runs it in their own repository: the kit's suites and a factory of fresh stores with their probe.
runStorageConformance("memory", async () => {
  const storage = new MemoryStorage();
  return { storage, probe: storage.probe(), dispose: () => storage.close() };
});

// Every uniqueness rule raced through the HTTP handler on this store (it runs transactions one at a time).
runRaceConformance("memory", async () => {
  const storage = new MemoryStorage();
  return { storage, dispose: () => storage.close() };
});
