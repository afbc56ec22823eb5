import { AsyncLocalStorage } from "node:async_hooks";
import type { RateLimitStore } from "../ports/rate-limit-store.js";
import type { Repositories, Storage } from "../ports/storage.js";
import { withTransaction } from "../storage-with-transaction.js";
import type { RateLimitDecision } from "./rate-limiter.js";

/**
 * A write request whose rate-limit hit has not been counted yet: the first transaction it runs counts it.
 * pending → counted (that transaction committed, the hit with it) or → uncounted (it rolled back, the hit with it,
 * or the request ended without one): the limiter then counts the hit on its own.
 */
export interface CountedWriteScope {
  /** Adds the hit through the given counters (the transaction's) and decides. */
  readonly decide: (counters: RateLimitStore) => Promise<RateLimitDecision>;
  state: "pending" | "claimed" | "counted" | "uncounted";
  decision?: RateLimitDecision | undefined;
}

const scopes = new AsyncLocalStorage<CountedWriteScope>();

export const runInCountedWrite = <T>(scope: CountedWriteScope, fn: () => Promise<T>): Promise<T> =>
  scopes.run(scope, fn);

/** Thrown out of the counting transaction when the budget refuses: that transaction committed the hit alone. */
export class CountedWriteRefused extends Error {
  constructor(readonly decision: RateLimitDecision) {
    super("The organisation's request budget is spent");
  }
}

/**
 * The storage of a Practice with each write request's rate-limit hit counted by its first transaction: the hit is
 * that transaction's first statement; over the budget the transaction commits the hit and nothing else, and the
 * call fails with CountedWriteRefused. The hit is decided before the body runs, so a refused request changes
 * nothing but its counter, as when the hit was counted before the request's work. Outside a counted write (and
 * after its first transaction) transactions run unchanged.
 */
export function countedWritesStorage(storage: Storage): Storage {
  return withTransaction(storage, <T>(fn: (tx: Repositories) => Promise<T>): Promise<T> => {
    // Read now, in the caller's context: a shared commit runs the body from another request's turn.
    const scope = scopes.getStore();
    if (scope?.state !== "pending") return storage.transaction(fn);
    scope.state = "claimed";
    let refused: RateLimitDecision | undefined;
    return storage
      .transaction(async (tx) => {
        // The engine may run the body again (a conflict): each run decides afresh.
        const decision = await scope.decide(tx.rateLimits);
        scope.decision = decision;
        refused = decision.allowed ? undefined : decision;
        return refused ? (undefined as T) : fn(tx);
      })
      .then(
        (result) => {
          scope.state = "counted";
          if (refused) throw new CountedWriteRefused(refused);
          return result;
        },
        (error: unknown) => {
          // Rolled back, the hit with it: the limiter counts it on its own once the request ends.
          scope.state = "uncounted";
          scope.decision = undefined;
          throw error;
        },
      );
  });
}
