import type { Storage } from "@openpractice/core";
import type { StorageProbe } from "./storage-probe.js";

/** One isolated, migrated, empty store per test, with its probe. */
export interface StorageFixture {
  storage: Storage;
  probe: StorageProbe;
  /** Closes connections and removes the store. */
  dispose(): Promise<void>;
}

/** The store of the running test (made by runStorageConformance's beforeEach) and its fixture. */
export type CurrentStore = () => { s: Storage; fx: StorageFixture };

/** One domain's part of the storage contract: its describe block, run inside runStorageConformance. */
export type DomainConformance = (engine: string, current: CurrentStore) => void;
