import type { Storage } from "./storage.js";

/**
 * `storage` with its `transaction` replaced and everything else passed through, optional members included: the
 * Practice's storage wrappers (audited operations, counted writes) change only how a transaction runs.
 */
export function withTransaction<R extends object>(
  storage: Storage<R>,
  transaction: <T>(fn: (tx: R) => Promise<T>) => Promise<T>,
): Storage<R> {
  const wrapped: Storage<R> = {
    get capabilities() {
      return storage.capabilities;
    },
    get repositories() {
      return storage.repositories;
    },
    ping: () => storage.ping(),
    close: () => storage.close(),
    transaction,
  };
  if (storage.isUnavailable) wrapped.isUnavailable = (error) => storage.isUnavailable?.(error) ?? false;
  if (storage.poolStats) wrapped.poolStats = () => storage.poolStats?.();
  // Replica reads write nothing: they pass through.
  if (storage.readRepositories)
    wrapped.readRepositories = (organisationId) => storage.readRepositories?.(organisationId) ?? storage.repositories;
  if (storage.replicaHealth) wrapped.replicaHealth = () => storage.replicaHealth?.() ?? Promise.resolve([]);
  return wrapped;
}
