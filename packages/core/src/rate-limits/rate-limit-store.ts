/**
 * Shared fixed-window counters. Counts live in the store, so every process of a
 * deployment draws on one budget.
 */
export interface RateLimitStore {
  /**
   * Atomically adds `hits` (default 1) to the counter (key, windowStart) and
   * returns the count including them. With N concurrent callers of one hit
   * each, from any number of processes, the returned counts are exactly 1..N,
   * each once; a caller adding n owns the n counts ending at the one returned.
   */
  hit(key: string, windowStart: Date, hits?: number): Promise<number>;

  /**
   * Atomically takes back `hits` that the caller added with `hit` to the same counter and window: for work that
   * reserves its hit before it knows whether the hit should count (reserve, then settle). The counter never goes
   * below zero; an absent counter stays absent. Concurrency, from any number of processes: every `hit` returns a
   * count that includes each hit added before it and not yet released, so if callers go on only when their `hit`
   * returned at most L, at most L of them hold a hit at any moment, whatever their number.
   */
  release(key: string, windowStart: Date, hits: number): Promise<void>;

  /** The counter's value without adding a hit (0 when it has none). */
  count(key: string, windowStart: Date): Promise<number>;

  /** Deletes counters whose window started before `before`; returns how many. */
  deleteWindowsBefore(before: Date): Promise<number>;
}
