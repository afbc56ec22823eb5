import { SENT_WITH_NEXT_STATEMENT } from "@openpractice/kysely";
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import pg from "pg";

/** A statement written ahead of another in the same round trip: text and parameters already in wire form. */
interface HeldStatement {
  text: string;
  values: Array<string | null>;
}

/** The members of pg's connection a query writes its messages through (pg's own Query uses them the same way). */
interface PgConnection {
  parse(message: { text: string }): void;
  bind(message: { values: Array<string | null> }): void;
  execute(message: object): void;
}

declare module "pg" {
  interface Query {
    prepare(connection: PgConnection): void;
    handleCommandComplete(message: unknown, connection: PgConnection): void;
  }
}

/**
 * One pg query that runs held statements and then its own, written to the server together and answered by one
 * ReadyForQuery: each held statement's Parse/Bind/Execute, then the statement's own messages and their Sync. The
 * server runs them in order; an error in any skips the rest up to the Sync, as it would have over several round
 * trips, and rejects this query with it. The held statements' completions are not results of this one.
 */
class AfterHeldStatementsQuery extends pg.Query {
  private completionsToSkip: number;

  constructor(
    private readonly held: readonly HeldStatement[],
    text: string,
    values: readonly unknown[],
    callback: (error: Error | undefined, result: unknown) => void,
  ) {
    super(text, values as unknown[], callback);
    this.completionsToSkip = held.length;
  }

  // Always the extended protocol: the simple one would answer with a ReadyForQuery per statement.
  requiresPreparation(): boolean {
    return true;
  }

  override prepare(connection: PgConnection): void {
    for (const statement of this.held) {
      connection.parse({ text: statement.text });
      connection.bind({ values: statement.values });
      connection.execute({});
    }
    super.prepare(connection);
  }

  override handleCommandComplete(message: unknown, connection: PgConnection): void {
    if (this.completionsToSkip > 0) {
      this.completionsToSkip--;
      return;
    }
    super.handleCommandComplete(message, connection);
  }
}

const noRows = (command: string): PostgresQueryResult<never> => ({ command, rowCount: 0, rows: [] }) as never;

/** Parameters as pg writes them for the values our statements carry; undefined for any other kind (not held). */
function wireValues(values: readonly unknown[]): Array<string | null> | undefined {
  const wire: Array<string | null> = [];
  for (const value of values) {
    if (value === null || value === undefined) wire.push(null);
    else if (typeof value === "string") wire.push(value);
    else if (typeof value === "number" || typeof value === "bigint" || typeof value === "boolean")
      wire.push(String(value));
    else return undefined;
  }
  return wire;
}

/**
 * A checked-out client that writes a transaction's statements in fewer round trips. Kysely's `begin` is held and
 * sent with the transaction's first statement; a statement marked SENT_WITH_NEXT_STATEMENT (one whose result
 * nobody reads: a transaction's outbox events and audit entries, written at its end) is held and sent with the
 * next, which is usually COMMIT. A registration thus takes two round trips (BEGIN and the insert; the appends and
 * COMMIT) instead of four. An error in a held statement fails the statement it rode with, so the transaction
 * fails and rolls back as it would have; a transaction that ends before any statement sends nothing, and a
 * rollback drops what it held.
 */
class PipelinedTransactionClient implements PostgresPoolClient {
  private beginHeld = false;
  private held: HeldStatement[] = [];

  constructor(private readonly client: pg.PoolClient) {}

  query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(sql: string | PostgresCursor<R>, parameters: readonly unknown[] = []): unknown {
    // A cursor comes only from a dialect given one (ours has none) and keeps a portal open: nothing may ride with it.
    if (typeof sql !== "string") {
      if (this.beginHeld || this.held.length > 0) throw new Error("pipelined transactions do not run cursors");
      return this.client.query(sql as never);
    }
    const statement = sql.trim().toLowerCase();
    if (statement === "begin") {
      this.beginHeld = true;
      return Promise.resolve(noRows("BEGIN"));
    }
    if (statement === "rollback") {
      this.held = [];
      if (this.beginHeld) {
        this.beginHeld = false;
        return Promise.resolve(noRows("ROLLBACK"));
      }
      return this.client.query(sql);
    }
    if (statement === "commit" && this.beginHeld && this.held.length === 0) {
      this.beginHeld = false;
      return Promise.resolve(noRows("COMMIT"));
    }
    const wire = sql.startsWith(SENT_WITH_NEXT_STATEMENT) ? wireValues(parameters) : undefined;
    if (wire) {
      this.held.push({ text: sql, values: wire });
      // Kysely reads no row count from a command it does not know; the caller reads nothing at all.
      return Promise.resolve(noRows("HELD"));
    }
    const held = this.takeHeld();
    if (held.length === 0) return this.client.query(sql, parameters as unknown[]);
    // Without parameters pg sends text by the simple protocol, which may carry several commands (a migration's);
    // the extended protocol takes one per Parse. Such a statement waits for what was held, one round trip each.
    if (parameters.length === 0 && statement !== "commit") return this.afterEach(held, sql);
    return new Promise((resolve, reject) => {
      const query = new AfterHeldStatementsQuery(held, sql, parameters, (error, result) =>
        error ? reject(error) : resolve(result),
      );
      this.client.query(query as never);
    });
  }

  /** BEGIN if held, then the held statements, in order. */
  private takeHeld(): HeldStatement[] {
    const held = this.beginHeld ? [{ text: "BEGIN", values: [] }, ...this.held] : this.held;
    this.beginHeld = false;
    this.held = [];
    return held;
  }

  /** Runs the held statements one after another, then `sql`; the first failure fails it. */
  private async afterEach(held: readonly HeldStatement[], sql: string): Promise<unknown> {
    for (const statement of held) await this.client.query(statement.text, statement.values);
    return this.client.query(sql);
  }

  release(): void {
    this.beginHeld = false;
    this.held = [];
    this.client.release();
  }
}

/** The pool Kysely checks clients out of: the vendor's or our pg.Pool, its clients wrapped, never patched. */
export function pipelinedTransactions(pool: pg.Pool): PostgresPool {
  return {
    connect: async () => new PipelinedTransactionClient(await pool.connect()),
    end: () => pool.end(),
  };
}
