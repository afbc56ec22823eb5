import type { Repositories } from "@openpractice/core";
import type { MemoryState } from "./memory-state.js";

/** Some of the port's repositories, by their key in Repositories. */
export type MemoryModuleRepositories = Partial<Repositories>;

/**
 * A domain of the memory storage: its repositories over the state (a new
 * domain keeps its rows in its own slice, moduleState(state, key, init)).
 */
export interface MemoryModule {
  readonly key: string;
  repositories(state: () => MemoryState): MemoryModuleRepositories;
}
