/** The option every suite of the kit takes to change how long it waits. */
export interface KitTimeoutOptions {
  /**
   * How long each test and each fixture hook of the suite may take, in milliseconds; default 60,000. The kit sets
   * it on its own tests and hooks, so your vitest configuration's `testTimeout` and `hookTimeout` do not apply.
   */
  timeoutMs?: number;
}

/**
 * The kit's default wait per test and hook. Vitest's defaults (5 s a test, 10 s a hook) are too short: a race rule
 * fires 100 requests through the handler and took 19 s on the in-memory store of a loaded two-core machine, and a
 * fresh database with its migrations is created before every storage test.
 */
export const KIT_TIMEOUT_MS = 60_000;
