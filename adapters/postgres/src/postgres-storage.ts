import { KyselyStorage, type Database } from "@openpractice/kysely";
import { Kysely, PostgresDialect } from "kysely";
import pg from "pg";
import { postgresProfile } from "./postgres-profile.js";

export interface PostgresStorageOptions {
  /** postgres://user:password@host:port/database; the adapter creates and owns a pool. Ignored when `pool` is given. */
  url?: string | undefined;
  /** An already-built pg.Pool; the caller keeps ownership and ends it. */
  pool?: pg.Pool | undefined;
  /** Pool size when the adapter builds the pool (default 10). */
  maxConnections?: number | undefined;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean | undefined;
  /** Told when an idle pooled connection fails (server restart, network drop); the pool replaces it. */
  onIdleConnectionError?: ((error: Error) => void) | undefined;
}

const guarded = new WeakSet<pg.PoolClient>();

/**
 * pg-pool listens for errors only on idle clients. When the server drops a client this store has checked out
 * (a query in flight, or a transaction between statements), the client emits 'error' with no listener, and
 * Node ends the process. With this listener the failure surfaces where it belongs: the running or the next
 * query rejects (isUnavailable: 503), and the pool discards the client when it is released.
 */
function guardCheckedOutClients(pool: pg.Pool): void {
  pool.on("acquire", (client) => {
    if (guarded.has(client)) return;
    guarded.add(client);
    client.on("error", () => undefined);
  });
}

/** The storage port on PostgreSQL (pg + Kysely). */
export async function createPostgresStorage(options: PostgresStorageOptions): Promise<KyselyStorage> {
  if (!options.pool && !options.url) throw new Error("createPostgresStorage needs a url or a pool");
  let pool = options.pool;
  if (!pool) {
    pool = new pg.Pool({ connectionString: options.url, max: options.maxConnections ?? 10 });
    // An idle client dropped by the server emits 'error' on the pool; without a listener that kills the process.
    pool.on("error", (error) => options.onIdleConnectionError?.(error));
  }
  guardCheckedOutClients(pool);
  const db = new Kysely<Database>({ dialect: new PostgresDialect({ pool }) });
  const counted = pool;
  const storage = new KyselyStorage({
    db,
    profile: postgresProfile,
    ownsConnection: !options.pool,
    poolStats: () => ({
      total: counted.totalCount,
      idle: counted.idleCount,
      waiting: counted.waitingCount,
      max: counted.options.max ?? 10,
    }),
  });
  if (options.migrate !== false) await storage.migrate();
  return storage;
}
