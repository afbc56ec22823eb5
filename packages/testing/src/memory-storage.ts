import type { Repositories, Storage } from "@openpractice/core";
import { testingDomains } from "./domains.js";
import { emptyState, type MemoryState } from "./memory/memory-state.js";
import type { StorageProbe } from "./conformance/storage-probe.js";
import { memoryProbe } from "./memory/memory-probe.js";

/**
 * A complete storage adapter in memory, to show what the port asks of one and
 * to run core's services fast in tests: it passes the same conformance suite
 * as SQLite, PostgreSQL and MariaDB (examples/custom-storage runs it).
 * Transactions run one at a time; each snapshots the state and restores it
 * when its function throws. Not durable: for tests and demos.
 */
export class MemoryStorage implements Storage {
  readonly capabilities = Object.freeze({ engine: "memory", returning: true, skipLocked: false });
  readonly repositories: Repositories;
  private state: MemoryState = emptyState();
  private queue: Promise<unknown> = Promise.resolve();
  private closed = false;

  constructor() {
    const guarded = memoryRepositories(() => this.open());
    // Outside a transaction each call waits for running transactions, so it never sees half of one.
    this.repositories = wrapEach(guarded, (call) => this.serialise(call));
  }

  /** What the conformance suite's probe reads: the state as it is now (never for use by adapters' callers). */
  probe(): StorageProbe {
    return memoryProbe(() => this.state);
  }

  private open(): MemoryState {
    if (this.closed) throw new Error("memory storage is closed");
    return this.state;
  }

  private serialise<T>(work: () => Promise<T>): Promise<T> {
    const run = this.queue.then(work, work);
    this.queue = run.catch(() => undefined);
    return run;
  }

  transaction<T>(fn: (tx: Repositories) => Promise<T>): Promise<T> {
    return this.serialise(async () => {
      const snapshot = structuredClone(this.open());
      try {
        return await fn(memoryRepositories(() => this.open()));
      } catch (error) {
        this.state = snapshot;
        throw error;
      }
    });
  }

  async ping(): Promise<void> {
    this.open();
  }

  async close(): Promise<void> {
    this.closed = true;
  }
}

function wrapEach(repos: Repositories, around: <T>(call: () => Promise<T>) => Promise<T>): Repositories {
  const wrapped: Record<string, Record<string, unknown>> = {};
  for (const [name, repo] of Object.entries(repos)) {
    wrapped[name] = Object.fromEntries(
      Object.entries(repo as Record<string, (...a: unknown[]) => Promise<unknown>>).map(([method, fn]) => [
        method,
        (...args: unknown[]) => around(() => fn(...args)),
      ]),
    );
  }
  return wrapped as unknown as Repositories;
}

/** Every repository of the port over the state: each domain's memory module (domains.ts). */
function memoryRepositories(s: () => MemoryState): Repositories {
  return Object.assign({}, ...testingDomains.map((domain) => domain.repositories(s))) as Repositories;
}
