import { KyselyStorage, type Database } from "@openpractice/kysely";
import { Kysely, MysqlDialect } from "kysely";
import { createPool, type Pool } from "mysql2";
import { mysqlProfile } from "./mysql-profile.js";

export interface MysqlStorageOptions {
  /** mysql://user:password@host:port/database; the adapter creates and owns a pool. Ignored when `pool` is given. */
  url?: string | undefined;
  /** An already-built mysql2 pool (callback API, as Kysely's MysqlDialect expects); the caller keeps ownership. */
  pool?: Pool | undefined;
  /** Pool size when the adapter builds the pool (default 10). */
  maxConnections?: number | undefined;
  /** Apply pending migrations before returning (default true). */
  migrate?: boolean | undefined;
}

/** The storage port on MySQL 8 or MariaDB 10.6+ (mysql2 + Kysely). Tables use utf8mb4. */
export async function createMysqlStorage(options: MysqlStorageOptions): Promise<KyselyStorage> {
  const url = options.url;
  if (!options.pool && !url) throw new Error("createMysqlStorage needs a url or a pool");
  const pool =
    options.pool ??
    createPool({
      uri: url as string,
      connectionLimit: options.maxConnections ?? 10,
      charset: "utf8mb4",
      timezone: "Z",
      supportBigNumbers: true,
      bigNumberStrings: false,
    });
  const db = new Kysely<Database>({ dialect: new MysqlDialect({ pool }) });
  const storage = new KyselyStorage({
    db,
    profile: mysqlProfile,
    ownsConnection: !options.pool,
    poolStats: () => mysqlPoolStats(pool, options.maxConnections ?? 10),
  });
  if (options.migrate !== false) await storage.migrate();
  return storage;
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
