import { SENT_WITH_NEXT_STATEMENT } from "@openpractice/kysely";
import type {
  MysqlOkPacket,
  MysqlPool,
  MysqlPoolConnection,
  MysqlQueryResult,
  MysqlStream,
  MysqlStreamOptions,
} from "kysely";
import type { Pool, PoolConnection } from "mysql2";

/** What Kysely's MySQL driver reads of a command it sent but whose answer nobody uses (begin, a held statement). */
const NOTHING: MysqlOkPacket = { affectedRows: 0, changedRows: 0, insertId: 0 };

type Answer = (error: unknown, result: MysqlQueryResult) => void;

/**
 * A checked-out connection that writes a transaction's statements in fewer round trips, as the PostgreSQL
 * adapter's does: Kysely's `begin` is held and sent with the transaction's first statement, and a statement marked
 * SENT_WITH_NEXT_STATEMENT (a transaction's outbox events and audit entries, written at its end) is held and sent
 * with the next, usually COMMIT. mysql2 has no pipelining, so the held statements and the next one go as one
 * multi-statement text (the pool must allow `multipleStatements`): each formatted by the connection's own
 * `format`, the very escaping `query(sql, values)` applies, so no value is ever spliced in any other way. A failed
 * statement's error then carries the whole text (`error.sql`), values included: like any driver error, not for
 * logs. The server runs them in order and stops at the first error, which fails the statement they rode with: the
 * transaction then rolls back as it would have. A registration thus takes two round trips (START TRANSACTION and the
 * insert; the outbox event, the audit entry and COMMIT) instead of five. Off by default: only on a pool that allows
 * multiple statements, which the adapter's own does only when asked (`multipleStatements`).
 */
class PipelinedTransactionConnection implements MysqlPoolConnection {
  private beginHeld = false;
  private held: string[] = [];

  constructor(private readonly connection: PoolConnection) {}

  query(sql: string, parameters: unknown[]): { stream: <T>(options: MysqlStreamOptions) => MysqlStream<T> };
  query(sql: string, parameters: unknown[], callback: Answer): void;
  query(sql: string, parameters: unknown[], callback?: Answer): unknown {
    if (!callback) {
      // A stream (Kysely's streamQuery) keeps the connection busy with its rows: nothing may ride with it.
      if (this.beginHeld || this.held.length > 0) throw new Error("pipelined transactions do not stream");
      return this.connection.query(sql, parameters);
    }
    const statement = sql.trim().toLowerCase();
    if (statement === "begin") {
      this.beginHeld = true;
      return callback(null, NOTHING);
    }
    if (statement === "rollback") {
      this.held = [];
      if (this.beginHeld) {
        this.beginHeld = false;
        return callback(null, NOTHING);
      }
      return this.connection.query(sql, (error, result) => callback(error, result as MysqlQueryResult));
    }
    if (statement === "commit" && this.beginHeld && this.held.length === 0) {
      this.beginHeld = false;
      return callback(null, NOTHING);
    }
    if (sql.startsWith(SENT_WITH_NEXT_STATEMENT)) {
      this.held.push(this.connection.format(sql, parameters));
      return callback(null, NOTHING);
    }
    const held = this.beginHeld ? ["begin", ...this.held] : this.held;
    if (held.length === 0)
      return this.connection.query(sql, parameters, (error, result) => callback(error, result as MysqlQueryResult));
    // Formatted before the held statements are let go: should a value refuse to format, they stay held.
    // Statements on lines of their own: a statement ending in a line comment cannot swallow the separator.
    const text = [...held, this.connection.format(sql, parameters)].join("\n;\n");
    this.beginHeld = false;
    this.held = [];
    // One result per statement, in order: the last is this statement's own. The text is formatted already; mysql2
    // formats it again with no values, which leaves it as it is.
    this.connection.query(text, [], (error, results) =>
      callback(error, error ? (undefined as never) : ((results as unknown[])[held.length] as MysqlQueryResult)),
    );
  }

  release(): void {
    // Only a transaction holds statements, and it ends with COMMIT or ROLLBACK, which send or drop them.
    if (this.held.length > 0) console.warn(`pipelined transactions: ${this.held.length} held statement(s) dropped`);
    this.beginHeld = false;
    this.held = [];
    this.connection.release();
  }
}

/** The URL's `multipleStatements` parameter, taken out of it (so mysql2 reads it from nowhere else). */
export interface MysqlUrlSettings {
  url: string;
  /** Present when the URL says: `true`, `1`, `on` or `yes` turn statement batching on, anything else off. */
  multipleStatements: boolean | undefined;
}

/**
 * Statement batching is off unless asked for: several statements in one text would let any SQL ever built by
 * splicing input chain statements of its own. `?multipleStatements=true` (or the option) turns it on.
 */
export function mysqlUrlSettings(url: string): MysqlUrlSettings {
  const parsed = new URL(url);
  const given = parsed.searchParams.get("multipleStatements");
  if (given === null) return { url, multipleStatements: undefined };
  parsed.searchParams.delete("multipleStatements");
  return { url: parsed.toString(), multipleStatements: ["true", "1", "on", "yes"].includes(given.toLowerCase()) };
}

/**
 * True when the pool's connections accept several statements in one text (mysql2's `multipleStatements`) and
 * format values the standard way: a custom `queryFormat` would format the joined, already formatted text again.
 */
export function allowsMultipleStatements(pool: Pool): boolean {
  const config = (
    pool as unknown as { config?: { connectionConfig?: { multipleStatements?: boolean; queryFormat?: unknown } } }
  ).config;
  return config?.connectionConfig?.multipleStatements === true && config.connectionConfig.queryFormat === undefined;
}

/**
 * The pool Kysely checks connections out of: the mysql2 pool's, each wrapped once (Kysely keeps its own state per
 * connection object, so the same wrapper comes back for the same connection). Use only on a pool that
 * `allowsMultipleStatements`.
 */
export function pipelinedTransactions(pool: Pool): MysqlPool {
  const wrappers = new WeakMap<PoolConnection, PipelinedTransactionConnection>();
  return {
    getConnection(callback) {
      pool.getConnection((error, connection) => {
        if (error) return callback(error, undefined as never);
        let wrapper = wrappers.get(connection);
        if (!wrapper) {
          wrapper = new PipelinedTransactionConnection(connection);
          wrappers.set(connection, wrapper);
        }
        callback(null, wrapper);
      });
    },
    end: (callback) => pool.end(callback),
  };
}
