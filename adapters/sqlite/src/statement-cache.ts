import type BetterSqlite3 from "better-sqlite3";

/**
 * A better-sqlite3 handle whose prepare() reuses statements by SQL text.
 * Kysely's SqliteDriver prepares every query anew (35-60 µs each); with one
 * connection used sequentially, a prepared statement can safely be reused.
 * Least recently added statements are dropped past `max`.
 */
export function withStatementCache(database: BetterSqlite3.Database, max = 500): BetterSqlite3.Database {
  const cache = new Map<string, BetterSqlite3.Statement>();
  const prepare = (source: string) => {
    let statement = cache.get(source);
    if (!statement) {
      if (cache.size >= max) cache.delete(cache.keys().next().value as string);
      statement = database.prepare(source);
      cache.set(source, statement);
    }
    return statement;
  };
  return new Proxy(database, {
    get(target, property) {
      if (property === "prepare") return prepare;
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
}
