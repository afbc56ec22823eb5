import { kyselyStorageWithReplicas, serverAddressOf, type Database, type KyselyStorage } from "@openpractice/kysely";
import { Kysely, PostgresDialect } from "kysely";
import { pipelinedTransactions } from "./pipelined-transactions.js";
import pg from "pg";
import { coalescingSocket } from "./coalescing-socket.js";
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
  /**
   * Named prepared statements for hot inserts (default true; `?preparedStatements=false` in the URL turns them off
   * too). Turn off behind a pooler that does not carry prepared statements between transactions.
   */
  preparedStatements?: boolean | undefined;
  /**
   * Pipelining for the pool the adapter builds (default true; `?pipelining=false` in the URL turns it off too):
   * its clients run in pg's pipeline mode, and a transaction's statements are written together, a registration in
   * one round trip. A pool passed in is pipelined when it was built with `pipeline: true`.
   */
  pipelining?: boolean | undefined;
  /** Told when an idle pooled connection fails (server restart, network drop); the pool replaces it. */
  onIdleConnectionError?: ((error: Error) => void) | undefined;
  /** Read replicas (hot standbys of the primary) for list and search reads; never migrated. */
  readUrls?: readonly string[] | undefined;
  /** Already-built replica pools instead of `readUrls`; the caller keeps ownership. */
  readPools?: readonly pg.Pool[] | undefined;
  /** Read-your-writes window in milliseconds (default 5,000). */
  readYourWritesMs?: number | undefined;
  /** Told when a replica fails and its reads go to the primary. */
  onReplicaDown?: ((replica: string, error: unknown) => void) | undefined;
}

/** A replica that does not accept a connection within this long is passed over (pg waits forever by default). */
const REPLICA_CONNECT_TIMEOUT_MS = 3_000;

/** The replica pools, named host:port/database; the adapter owns those it built from URLs. */
function replicaPools(options: PostgresStorageOptions) {
  const given = (options.readPools ?? []).map((pool, i) => ({
    name: `${pool.options.host ?? "replica"}:${pool.options.port ?? 5432}/${pool.options.database ?? i}`,
    pool,
    owned: false,
  }));
  const built = (options.readUrls ?? []).map((url) => {
    const pool = new pg.Pool({
      connectionString: postgresUrlSettings(url).url,
      max: options.maxConnections ?? 10,
      connectionTimeoutMillis: REPLICA_CONNECT_TIMEOUT_MS,
      // Names the replica's sessions in pg_stat_activity, apart from the primary's.
      application_name: "openpractice-replica",
    });
    pool.on("error", (error) => options.onIdleConnectionError?.(error));
    return { name: `${serverAddressOf(url, 5432)}${new URL(url).pathname}`, pool, owned: true };
  });
  return [...given, ...built];
}

const guarded = new WeakSet<pg.PoolClient>();
const guardedPools = new WeakSet<pg.Pool>();

/**
 * pg-pool listens for errors only on idle clients. When the server drops a client this store has checked out
 * (a query in flight, or a transaction between statements), the client emits 'error' with no listener, and
 * Node ends the process. With this listener the failure surfaces where it belongs: the running or the next
 * query rejects (isUnavailable: 503), and the pool discards the client when it is released.
 */
function guardCheckedOutClients(pool: pg.Pool): void {
  // Once per pool: a host that builds a storage per tenant or per test on its one pool adds no listener each time.
  if (guardedPools.has(pool)) return;
  guardedPools.add(pool);
  pool.on("acquire", (client) => {
    if (guarded.has(client)) return;
    guarded.add(client);
    client.on("error", () => undefined);
  });
}

/** The adapter's own URL parameters, each on unless the URL says `false`, `0`, `off` or `no`. */
export interface PostgresUrlSettings {
  /** The URL without them (pg would not know them), otherwise as written. */
  url: string;
  preparedStatements: boolean;
  pipelining: boolean;
}

const OWN_PARAMETERS = ["preparedStatements", "pipelining"] as const;

/**
 * The URL's `preparedStatements` and `pipelining` parameters, taken out of it. The query string is edited as text:
 * pg accepts connection strings that are not WHATWG URLs (a socket directory as host), and a URL parser's error
 * would print the password.
 */
export function postgresUrlSettings(url: string): PostgresUrlSettings {
  const settings: PostgresUrlSettings = { url, preparedStatements: true, pipelining: true };
  const query = url.indexOf("?");
  if (query < 0) return settings;
  const kept = url
    .slice(query + 1)
    .split("&")
    .filter((pair) => {
      const own = OWN_PARAMETERS.find((name) => pair.startsWith(`${name}=`));
      if (!own) return true;
      const value = decodeURIComponent(pair.slice(own.length + 1)).toLowerCase();
      settings[own] = !["false", "0", "off", "no"].includes(value);
      return false;
    });
  settings.url = url.slice(0, kept.length > 0 ? query + 1 : query) + kept.join("&");
  return settings;
}

/** The storage port on PostgreSQL (pg + Kysely). */
export async function createPostgresStorage(options: PostgresStorageOptions): Promise<KyselyStorage> {
  if (!options.pool && !options.url) throw new Error("createPostgresStorage needs a url or a pool");
  let pool = options.pool;
  const fromUrl = options.url ? postgresUrlSettings(options.url) : undefined;
  if (!pool) {
    pool = new pg.Pool({
      connectionString: fromUrl?.url,
      max: options.maxConnections ?? 10,
      ...((options.pipelining ?? fromUrl?.pipelining ?? true)
        ? // pg's public pipeline mode: a transaction's statements written together (pipelined-transactions.ts), in
          // one TCP segment.
          { pipeline: true, stream: coalescingSocket }
        : {}),
    });
    // An idle client dropped by the server emits 'error' on the pool; without a listener that kills the process.
    pool.on("error", (error) => options.onIdleConnectionError?.(error));
  }
  guardCheckedOutClients(pool);
  const preparedStatements = options.preparedStatements ?? (options.pool ? true : fromUrl?.preparedStatements);
  const dialect = new PostgresDialect({ pool: pipelinedTransactions(pool, { preparedStatements }) });
  const db = new Kysely<Database>({ dialect });
  const counted = pool;
  const primary = {
    db,
    profile: postgresProfile,
    ownsConnection: !options.pool,
    poolStats: () => ({
      total: counted.totalCount,
      idle: counted.idleCount,
      waiting: counted.waitingCount,
      max: counted.options.max ?? 10,
    }),
  };
  const replicas = replicaPools(options).map(({ name, pool: replica, owned }) => {
    guardCheckedOutClients(replica);
    return {
      name,
      db: new Kysely<Database>({ dialect: new PostgresDialect({ pool: replica }) }),
      ownsConnection: owned,
    };
  });
  const { readYourWritesMs, onReplicaDown } = options;
  const storage = kyselyStorageWithReplicas({ ...primary, replicas, dialect, readYourWritesMs, onReplicaDown });
  if (options.migrate !== false) await storage.migrate();
  return storage;
}
