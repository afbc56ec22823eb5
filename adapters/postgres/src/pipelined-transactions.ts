import { SENT_WITH_NEXT_STATEMENT } from "@openpractice/kysely";
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import pg from "pg";
import { ConnectionStatements, forgetAllPreparedStatements, isStalePreparedStatement } from "./prepared-statements.js";

/** A statement held to be written with the next one. */
interface HeldStatement {
  text: string;
  values: readonly unknown[];
}

/**
 * PostgreSQL answers COMMIT with the tag ROLLBACK, and no error, when a statement of the transaction had failed:
 * an error its caller caught and dropped. The transaction then committed nothing, so the commit fails rather than
 * report success.
 */
function refusingRolledBackCommit(result: unknown): unknown {
  if ((result as { command?: unknown } | null)?.command !== "ROLLBACK") return result;
  throw Object.assign(new Error("COMMIT rolled the transaction back: a statement in it had failed"), {
    code: "40000",
  });
}

const noRows = (command: string): PostgresQueryResult<never> => ({ command, rowCount: 0, rows: [] }) as never;

/**
 * A checked-out client that writes a transaction's statements in fewer round trips, through pg's public pipeline
 * mode (`new pg.Pool({ pipeline: true })`: a client writes each query without waiting for the answers to those
 * before it, and the server answers them in order). Kysely's `begin` is held and sent with the transaction's first
 * statement; a statement marked SENT_WITH_NEXT_STATEMENT (one whose result nobody reads and which answers no rows: a
 * transaction's outbox events and audit entries, written at its end, and a patient's insert ahead of its answer) is
 * held and sent with the next, which is usually COMMIT. A registration thus waits for one round trip (BEGIN, the
 * insert, the appends and COMMIT written together) instead of four.
 *
 * Each pipelined query carries its own Sync, so an error in a held statement leaves the transaction aborted: the
 * statements after it fail (25P02) or, for COMMIT, answer ROLLBACK; the statement they rode with then fails with the
 * held statement's own error, and the transaction rolls back as it would have. Statements are held only inside a
 * transaction, where that holds. On a client without pipeline mode (a pool passed in without `pipeline: true`, or
 * `pipelining: false`) nothing is held: each statement is its own round trip, as with stock pg.
 */
class PipelinedTransactionClient implements PostgresPoolClient {
  private beginHeld = false;
  private held: HeldStatement[] = [];
  /** Between Kysely's BEGIN and its COMMIT or ROLLBACK. */
  private inTransaction = false;

  /**
   * @param statements the connection's named statements; undefined to send every statement unnamed (prepared
   *   statements turned off).
   */
  constructor(
    private readonly client: pg.PoolClient,
    private readonly statements: ConnectionStatements | undefined,
  ) {}

  query<R>(sql: string, parameters: readonly unknown[]): Promise<PostgresQueryResult<R>>;
  query<R>(cursor: PostgresCursor<R>): PostgresCursor<R>;
  query<R>(sql: string | PostgresCursor<R>, parameters: readonly unknown[] = []): unknown {
    // A cursor comes only from a dialect given one (ours has none); pg refuses it in pipeline mode.
    if (typeof sql !== "string") {
      if (this.beginHeld || this.held.length > 0) throw new Error("pipelined transactions do not run cursors");
      return this.client.query(sql as never);
    }
    const statement = sql.trim().toLowerCase();
    const pipelined = this.client.pipeline;
    if (statement === "begin") {
      this.inTransaction = true;
      if (pipelined) {
        this.beginHeld = true;
        return Promise.resolve(noRows("BEGIN"));
      }
      return this.send(sql, parameters);
    }
    if (statement === "commit" || statement === "rollback") this.inTransaction = false;
    if (statement === "rollback") {
      this.held = [];
      if (this.beginHeld) {
        this.beginHeld = false;
        return Promise.resolve(noRows("ROLLBACK"));
      }
      return this.send(sql, parameters);
    }
    if (statement === "commit" && this.beginHeld && this.held.length === 0) {
      this.beginHeld = false;
      return Promise.resolve(noRows("COMMIT"));
    }
    if (pipelined && this.inTransaction && sql.startsWith(SENT_WITH_NEXT_STATEMENT)) {
      this.held.push({ text: sql, values: parameters });
      // Kysely reads no row count from a command it does not know; the caller reads nothing at all.
      return Promise.resolve(noRows("HELD"));
    }
    const held = this.takeHeld();
    const result = held.length === 0 ? this.sendAlone(sql, parameters) : this.pipelined(held, sql, parameters);
    return statement === "commit" ? result.then(refusingRolledBackCommit) : result;
  }

  /** One statement, under its connection's name if it has one; a statement gone or stale makes every text renamed. */
  private async send(text: string, values: readonly unknown[]): Promise<pg.QueryResult> {
    const name = this.statements?.nameFor(text);
    try {
      return await this.client.query(name ? { name, text, values: [...values] } : { text, values: [...values] });
    } catch (error) {
      if (name && isStalePreparedStatement(error)) forgetAllPreparedStatements();
      throw error;
    }
  }

  /**
   * A statement nothing rode with. Outside a transaction a named statement that was gone or stale did not run (it
   * fails at Bind): it is sent again under its new name. In a transaction the storage runs the whole transaction
   * again (the profile's isTransactionConflict).
   */
  private async sendAlone(text: string, values: readonly unknown[]): Promise<pg.QueryResult> {
    try {
      return await this.send(text, values);
    } catch (error) {
      if (this.inTransaction || !isStalePreparedStatement(error)) throw error;
      return this.send(text, values);
    }
  }

  /**
   * Writes `held` and then `sql` without waiting in between (pg's pipeline mode), and waits for all their answers:
   * the first held statement that failed fails this one with its error; else this one's own answer.
   */
  private async pipelined(held: readonly HeldStatement[], sql: string, parameters: readonly unknown[]) {
    const answers = await Promise.allSettled([
      ...held.map((statement) => this.send(statement.text, statement.values)),
      this.send(sql, parameters),
    ]);
    const failed = answers.find((answer) => answer.status === "rejected");
    if (failed) throw failed.reason;
    return (answers.at(-1) as PromiseFulfilledResult<pg.QueryResult>).value;
  }

  /** BEGIN if held, then the held statements, in order. */
  private takeHeld(): HeldStatement[] {
    const held = this.beginHeld ? [{ text: "BEGIN", values: [] }, ...this.held] : this.held;
    this.beginHeld = false;
    this.held = [];
    return held;
  }

  release(): void {
    this.inTransaction = false;
    this.beginHeld = false;
    this.held = [];
    this.client.release();
  }
}

/** Each pg connection's named statements, kept for the connection's life across checkouts. */
const statementsOf = new WeakMap<pg.PoolClient, ConnectionStatements>();

/** The client's named statements; the names of a forgotten generation are closed on the server first. */
async function statementsOfClient(client: pg.PoolClient): Promise<ConnectionStatements> {
  let statements = statementsOf.get(client);
  if (!statements) {
    statements = new ConnectionStatements();
    statementsOf.set(client, statements);
  }
  // Outside any transaction, so a name the server no longer holds (26000) costs nothing but its own answer. One at a
  // time: a client outside pipeline mode must not be handed a query while another runs (pg deprecates its queue).
  for (const name of statements.retiredNames())
    await client.query(`deallocate ${pg.escapeIdentifier(name)}`).catch(() => undefined);
  return statements;
}

export interface PipelinedTransactionsOptions {
  /**
   * Named prepared statements for the statements marked PREPARABLE (default true). Turn off behind a pooler that
   * does not carry prepared statements from one transaction to the next (PgBouncer before 1.21 in transaction
   * mode, or without `max_prepared_statements`).
   */
  preparedStatements?: boolean | undefined;
}

/**
 * The pool Kysely checks clients out of: the vendor's or our pg.Pool, its clients wrapped, never patched. Only
 * pg's public API is used; a transaction is pipelined when the pool's clients are in pipeline mode.
 */
export function pipelinedTransactions(pool: pg.Pool, options: PipelinedTransactionsOptions = {}): PostgresPool {
  const prepared = options.preparedStatements !== false;
  return {
    connect: async () => {
      const client = await pool.connect();
      return new PipelinedTransactionClient(client, prepared ? await statementsOfClient(client) : undefined);
    },
    end: () => pool.end(),
  };
}
