/** What a ConcurrencyLimit has done since it was made, and is doing now. */
export interface ConcurrencyLimitStats {
  /** Tasks started (each one that got a place, whether it then succeeded or failed). */
  started: number;
  /** Tasks running now: at most the limit. */
  running: number;
  /** Tasks waiting for a place now. */
  waiting: number;
}

/**
 * Runs at most `limit` tasks at once; the others wait for a place in arrival order. A place passes straight from a
 * finished task to the next waiting one, so a task arriving then cannot overtake those already waiting.
 */
export class ConcurrencyLimit {
  private running = 0;
  private started = 0;
  private readonly waiting: Array<() => void> = [];

  constructor(readonly limit: number) {
    if (!Number.isSafeInteger(limit) || limit < 1)
      throw new RangeError(`a concurrency limit must be a positive integer, got ${limit}`);
  }

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.running < this.limit) this.running++;
    else await new Promise<void>((take) => this.waiting.push(take));
    this.started++;
    try {
      return await task();
    } finally {
      const next = this.waiting.shift();
      if (next) next();
      else this.running--;
    }
  }

  stats(): ConcurrencyLimitStats {
    return { started: this.started, running: this.running, waiting: this.waiting.length };
  }
}
