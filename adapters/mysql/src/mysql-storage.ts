import { kyselyStorageWithReplicas, serverAddressOf, type Database, type KyselyStorage } from "@openpractice/kysely";
import { Kysely, MysqlDialect, sql } from "kysely";
import { createPool, type Pool, type PoolOptions } from "mysql2";
import { mariaDbProfile, mysqlProfile } from "./mysql-profile.js";
import { allowsMultipleStatements, mysqlUrlSettings, pipelinedTransactions } from "./pipelined-transactions.js";

export interface MysqlStorageOptions {
  /** mysql://user:password@host:port/database; the adapter creates and owns a pool. Ignored when `pool` is given. */
  url?: string | undefined;
  /** An already-built mysql2 pool (callback API, as Kysely's MysqlDialect expects); the caller keeps ownership. */
  pool?: Pool | undefined;
  /** Pool size when the adapter builds the pool (default 10). */
  maxConnections?: number | undefined;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean | undefined;
  /**
   * Statement batching for the pool the adapter builds (default **false**; `?multipleStatements=true` in the URL
   * turns it on too): the pool allows several statements in one text (mysql2's `multipleStatements`), and a
   * transaction's statements ride together, a registration in 2 round trips instead of 5
   * (pipelined-transactions.ts). The risk: were any SQL ever built by splicing input, it could chain statements.
   * A pool passed in is batched when it was built with `multipleStatements: true`.
   */
  multipleStatements?: boolean | undefined;
  /** Read replicas of the primary for list and search reads; never migrated. */
  readUrls?: readonly string[] | undefined;
  /** Read-your-writes window in milliseconds (default 5,000). */
  readYourWritesMs?: number | undefined;
  /** Told when a replica fails and its reads go to the primary. */
  onReplicaDown?: ((replica: string, error: unknown) => void) | undefined;
}

/** The driver settings of every pool this adapter builds. */
const POOL_SETTINGS: PoolOptions = {
  charset: "utf8mb4",
  timezone: "Z",
  supportBigNumbers: true,
  bigNumberStrings: false,
};

/** The storage port on MySQL 8 or MariaDB 10.6+ (mysql2 + Kysely). Tables use utf8mb4. */
export async function createMysqlStorage(options: MysqlStorageOptions): Promise<KyselyStorage> {
  if (!options.pool && !options.url) throw new Error("createMysqlStorage needs a url or a pool");
  const fromUrl = options.url ? mysqlUrlSettings(options.url) : undefined;
  const pool =
    options.pool ??
    createPool({
      ...POOL_SETTINGS,
      // Only when asked: the primary's statements then ride together (pipelined-transactions.ts), each value
      // escaped by mysql2's format.
      multipleStatements: options.multipleStatements ?? fromUrl?.multipleStatements ?? false,
      uri: fromUrl?.url as string,
      connectionLimit: options.maxConnections ?? 10,
    });
  // A vendor's pool is used as given: its statements ride together only if it allows multiple statements.
  const dialect = new MysqlDialect({ pool: allowsMultipleStatements(pool) ? pipelinedTransactions(pool) : pool });
  const db = new Kysely<Database>({ dialect });
  const primary = {
    db,
    profile: (await isMariaDb(db)) ? mariaDbProfile : mysqlProfile,
    ownsConnection: !options.pool,
    poolStats: () => mysqlPoolStats(pool, options.maxConnections ?? 10),
  };
  const replicas = (options.readUrls ?? []).map((readUrl) => ({
    name: `${serverAddressOf(readUrl, 3306)}${new URL(readUrl).pathname}`,
    db: new Kysely<Database>({
      dialect: new MysqlDialect({
        // A replica that does not answer within 3 s is passed over (its reads go to the primary).
        pool: createPool({
          ...POOL_SETTINGS,
          uri: mysqlUrlSettings(readUrl).url,
          connectionLimit: options.maxConnections ?? 10,
          connectTimeout: 3_000,
        }),
      }),
    }),
    ownsConnection: true,
  }));
  const { readYourWritesMs, onReplicaDown } = options;
  const storage = kyselyStorageWithReplicas({ ...primary, replicas, dialect, readYourWritesMs, onReplicaDown });
  if (options.migrate !== false) await storage.migrate();
  return storage;
}

/** MariaDB (10.5+ for INSERT … RETURNING; the adapter supports 10.6+) or MySQL, from the server's version string. */
async function isMariaDb(db: Kysely<Database>): Promise<boolean> {
  const { rows } = await sql<{ version: string }>`select version() as version`.execute(db);
  return /mariadb/i.test(rows[0]?.version ?? "");
}

/**
 * mysql2's pool has no public counters: these are its long-standing internal lists (connections, free ones,
 * waiting callers). When a release changes them, the stats are absent rather than wrong.
 */
function mysqlPoolStats(pool: Pool, max: number) {
  const inner = pool as unknown as {
    _allConnections?: { length: number };
    _freeConnections?: { length: number };
    _connectionQueue?: { length: number };
    config?: { connectionLimit?: number };
  };
  if (!inner._allConnections || !inner._freeConnections || !inner._connectionQueue) return undefined;
  return {
    total: inner._allConnections.length,
    idle: inner._freeConnections.length,
    waiting: inner._connectionQueue.length,
    max: inner.config?.connectionLimit ?? max,
  };
}
