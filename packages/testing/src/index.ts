export { runStorageConformance, type StorageFixture, type StorageProbe } from "./conformance/storage-conformance.js";
export { runRaceConformance, type RaceFixture } from "./conformance/race-conformance.js";
export { testAccessToken, testPracticeKeys } from "./conformance/test-keys.js";
export { MemoryStorage } from "./memory/memory-storage.js";
