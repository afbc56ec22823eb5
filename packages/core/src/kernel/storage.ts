/** Where engines differ; shared SQL branches on these, never on engine names. */
export interface StorageCapabilities {
  /** Engine name for logs and error messages ("sqlite", "postgres", "mysql"). */
  engine: string;
  /** INSERT ... RETURNING is available. */
  returning: boolean;
  /** SELECT ... FOR UPDATE SKIP LOCKED is available (job claiming without a single writer). */
  skipLocked: boolean;
  /**
   * One write transaction at a time, its commits shared by the transactions waiting (SQLite's group commit). A
   * counter written inside a write transaction then makes no other writer wait longer than it already does, so a
   * write request's rate-limit hit is counted in the write's own transaction (RateLimiter.runCounted). Absent or
   * false: the hit commits on its own first, as a counter row locked for a whole transaction would serialise an
   * organisation's writes on a server engine.
   */
  singleWriter?: boolean;
}

/**
 * The storage port, generic in the repositories it hands out: `R` is the whole
 * set for an adapter (the composition root's `Repositories`), and the few a
 * service reads and writes where the service is declared. Storage is covariant
 * in `R`: a store of every repository passes where a service asks for
 * `Storage<{ patients: PatientRepository; outbox: OutboxRepository }>`.
 * An adapter owns its connection(s) and migrations.
 *
 * Concurrency contract: `transaction` runs `fn` in one database transaction;
 * every call made through the `Repositories` it passes commits together or,
 * when `fn` throws, not at all (the error is rethrown unchanged). Repositories
 * from `repositories` run each call on its own. Transactions do not nest.
 * Driver and connection failures are thrown, never reported as "not found".
 * When the engine ends a transaction to break a deadlock between concurrent
 * ones (nothing of it is kept), `transaction` may run `fn` again, a few times,
 * so `fn` must act only through `tx` (no calls to other systems) and may not
 * rely on running once. A uniqueness rule decided by a unique key is reported
 * as the method's documented refusal, never as an error, and leaves the
 * transaction usable. An engine may also run `fn` again after it answered a
 * write optimistically (a patient insert sent with the commit, its duplicate
 * found there): what `transaction` resolves with is always the answer of a
 * run that committed. So `fn` must not catch and drop a storage error and go
 * on: the failed statement may be another one's, and the transaction then
 * commits nothing (the commit fails).
 */
export interface Storage<R extends object> {
  readonly capabilities: StorageCapabilities;
  readonly repositories: R;
  transaction<T>(fn: (tx: R) => Promise<T>): Promise<T>;
  /** Resolves when the database answers a trivial query. */
  ping(): Promise<void>;
  /** Closes connections; the instance is unusable afterwards. */
  close(): Promise<void>;
  /**
   * True when `error` means the store could not serve the call for now (the
   * server unreachable or shutting down, a connection lost, too many
   * connections, the database busy beyond its timeout): the request is safe
   * to retry and the host answers 503 SERVICE_UNAVAILABLE instead of 500.
   */
  isUnavailable?(error: unknown): boolean;
  /** The connection pool's use right now, for monitoring; absent where there is no pool (SQLite's one connection). */
  poolStats?(): PoolStats | undefined;
  /**
   * Repositories for one organisation's reads that may see a state a few
   * seconds old (lists and searches): an adapter with read replicas answers
   * them from a replica, unless the organisation wrote through this store
   * recently (read-your-writes), and from the primary when no replica
   * answers. Never for reads that decide a write: those belong in
   * `transaction`. Absent: `repositories` serves (see `readsFor`).
   */
  readRepositories?(organisationId: number): R;
  /** Whether each read replica answers a trivial query now; absent or empty without replicas. */
  replicaHealth?(): Promise<ReplicaHealth[]>;
}

/** One read replica's state, as readiness reports it. */
export interface ReplicaHealth {
  /** host:port/database, never the password. */
  name: string;
  up: boolean;
}

/**
 * The repositories for a list or search of one organisation: a replica's when
 * the store has them (Storage.readRepositories), else the primary's.
 */
export function readsFor<R extends object>(storage: Storage<R>, organisationId: number): R {
  return storage.readRepositories?.(organisationId) ?? storage.repositories;
}

export interface PoolStats {
  /** Connections open (idle and in use). */
  total: number;
  idle: number;
  /** Callers waiting for a connection. */
  waiting: number;
  /** The pool's size limit. */
  max: number;
}
