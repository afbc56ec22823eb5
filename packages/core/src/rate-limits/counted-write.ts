import { AsyncLocalStorage } from "node:async_hooks";
import type { RateLimitStore } from "./rate-limit-store.js";
import type { Storage } from "../kernel/storage.js";
import { withTransaction } from "../kernel/storage-with-transaction.js";
import { RateLimitExceeded } from "./rate-limit-errors.js";
import type { RateLimitDecision } from "./rate-limit-decision.js";

/**
 * A write request whose rate-limit hit its first committed transaction counts. pending → claimed (a transaction
 * carrying the hit runs) → counted (it committed, the hit with it) or back to pending (it rolled back, the hit with
 * it). closed: the request ended (RateLimiter.runCounted counts a hit still pending on its own); transactions of
 * work it left behind run unchanged.
 */
export interface CountedWriteScope {
  /** Adds the hit through the given counters (the transaction's) and decides. */
  readonly decide: (counters: RateLimitStore) => Promise<RateLimitDecision>;
  state: "pending" | "claimed" | "counted" | "closed";
  decision?: RateLimitDecision | undefined;
}

const scopes = new AsyncLocalStorage<CountedWriteScope>();

export const runInCountedWrite = <T>(scope: CountedWriteScope, fn: () => Promise<T>): Promise<T> =>
  scopes.run(scope, fn);

/** Thrown out of the counting transaction when the budget refuses: that transaction committed the hit alone. */
export class CountedWriteRefused extends RateLimitExceeded {}

/**
 * The storage of a Practice with each write request's rate-limit hit counted by its first transaction: the hit is
 * that transaction's first statement; over the budget the transaction commits the hit and nothing else, and the
 * call fails with CountedWriteRefused. The hit is decided before the body runs, so a refused request changes
 * nothing but its counter, as when the hit was counted before the request's work; a later transaction of a refused
 * request fails the same way. Outside a counted write, and after its hit has committed within the budget,
 * transactions run unchanged.
 */
export function countedWritesStorage<R extends { rateLimits: RateLimitStore }>(storage: Storage<R>): Storage<R> {
  return withTransaction(storage, <T>(fn: (tx: R) => Promise<T>): Promise<T> => {
    // Read now, in the caller's context: a shared commit runs the body from another request's turn.
    const scope = scopes.getStore();
    if (!scope || scope.state === "closed") return storage.transaction(fn);
    if (scope.state === "counted") {
      // Refused: no later transaction of the request writes either.
      if (scope.decision && !scope.decision.allowed) return Promise.reject(new CountedWriteRefused(scope.decision));
      return storage.transaction(fn);
    }
    if (scope.state === "claimed")
      return Promise.reject(new Error("A counted write runs one transaction at a time: await each before the next"));
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
          // Rolled back, the hit with it: the request's next transaction counts it, or the limiter once it ends.
          scope.state = "pending";
          scope.decision = undefined;
          throw error;
        },
      );
  });
}
