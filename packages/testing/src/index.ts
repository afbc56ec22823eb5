export { runStorageConformance } from "./conformance/storage-conformance.js";
export type { StorageFixture } from "./conformance/storage-fixture.js";
export {
  sharedSchemaProbe,
  type ProbedAppointment,
  type ProbedEvent,
  type ProbedJob,
  type ProbedPatient,
  type StorageProbe,
  type TableReader,
} from "./conformance/storage-probe.js";
export { runRaceConformance, type RaceFixture, type RaceOptions } from "./conformance/race-conformance.js";
export { KIT_TIMEOUT_MS, type KitTimeoutOptions } from "./conformance/kit-timeouts.js";
export { testAccessToken, testPracticeKeys } from "./conformance/test-keys.js";
export { MemoryStorage } from "./memory-storage.js";
export {
  describeDocumentStoreConformance,
  type DocumentStoreFixture,
  randomDocumentKey,
} from "./conformance/document-store-conformance.js";
export {
  checkPattern,
  type PatternCheck,
  patternByte,
  patternStream,
  type PatternStreamOptions,
} from "./conformance/byte-pattern.js";
