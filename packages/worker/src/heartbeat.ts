/** A running heartbeat; `stop` ends it and waits for a beat still in flight. */
export interface Heartbeat {
  stop(): Promise<void>;
}

/**
 * Runs `beat` every `periodMs` (at least 1 ms) until stopped, one at a time: a beat still running when the next is
 * due is not stacked on. Lease renewals use it, so a slow store never piles up renewals of the same leases.
 */
export function startHeartbeat(periodMs: number, beat: () => Promise<void>): Heartbeat {
  let inFlight: Promise<void> | undefined;
  const timer = setInterval(
    () => {
      inFlight ??= beat().finally(() => (inFlight = undefined));
    },
    Math.max(1, Math.floor(periodMs)),
  );
  return {
    async stop() {
      clearInterval(timer);
      await inFlight;
    },
  };
}
