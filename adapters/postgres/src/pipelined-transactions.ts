import { SENT_WITH_NEXT_STATEMENT } from "@openpractice/kysely";
import type { PostgresCursor, PostgresPool, PostgresPoolClient, PostgresQueryResult } from "kysely";
import pg from "pg";
import pgUtils from "pg/lib/utils.js";
import {
  ConnectionStatements,
  forgetAllPreparedStatements,
  isPreparable,
  isStalePreparedStatement,
  type StatementName,
} from "./prepared-statements.js";

/** A statement written ahead of another in the same round trip: text and parameters already in wire form. */
interface HeldStatement {
  text: string;
  values: Array<string | null>;
}

/** The members of pg's connection a query writes its messages through (pg's own Query uses them the same way). */
interface PgConnection {
  parse(message: { text: string; name?: string }): void;
  bind(message: {
    statement?: string;
    portal?: string;
    values: readonly unknown[];
    binary?: boolean | undefined;
    valueMapper?: (value: unknown) => unknown;
  }): void;
  describe(message: { type: "P"; name: string }): void;
  close(message: { type: "S"; name: string }): void;
  execute(message: object): void;
  sync(): void;
  on(event: "parseComplete", listener: () => void): void;
}

declare module "pg" {
  interface Query {
    readonly text: string | undefined;
    readonly portal: string;
    readonly binary: boolean | undefined;
    readonly rows: number | undefined;
    values: unknown[] | undefined;
    prepare(connection: PgConnection): void;
    handleCommandComplete(message: unknown, connection: PgConnection): void;
    handleReadyForQuery(connection: PgConnection): void;
    handleError(error: unknown, connection: PgConnection): void;
    _getRows(connection: PgConnection, rows: number | undefined): void;
  }
}

/**
 * One pg query that runs held statements and then its own, written to the server together and answered by one
 * ReadyForQuery: a Close of every retired name, the Parse of every named statement new to the connection, then each
 * held statement's (Parse,) Bind and Execute, then the statement's own and the Sync. The server runs them in order;
 * an error in any skips the rest up to the Sync, as it would have over several round trips, and rejects this query
 * with it. The held statements' completions are not results of this one. Named Parses go first so that an error in
 * a statement can never leave a later one's name unparsed while an earlier Bind used it; which of them the server
 * parsed is counted from its ParseComplete answers (ConnectionStatements). Names are chosen when the messages are
 * written, so they reflect every answer to the queries before on the connection.
 */
class PipelinedQuery extends pg.Query {
  private completionsToSkip: number;

  constructor(
    private readonly held: readonly HeldStatement[],
    private readonly statements: ConnectionStatements | undefined,
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
    const text = this.text ?? "";
    let values: unknown[];
    try {
      // Converted before anything is written: a value that cannot be sent fails the query with nothing sent.
      values = (this.values ?? []).map((value) => pgUtils.prepareValue(value));
    } catch (error) {
      connection.sync();
      this.handleError(error, connection);
      return;
    }
    const statements = this.statements;
    for (const name of statements?.retiredNames() ?? []) connection.close({ type: "S", name });
    // A text twice in one exchange is parsed (if new) at its first occurrence and bound by name at each.
    const first = new Map<string, StatementName | undefined>();
    const nameOf = (statementText: string): StatementName | undefined => {
      if (!statements || !isPreparable(statementText)) return undefined;
      if (first.has(statementText)) {
        const name = first.get(statementText);
        return name && { name: name.name, parse: false };
      }
      const name = statements.nameFor(statementText);
      first.set(statementText, name);
      return name;
    };
    const outgoing = [...this.held, { text, values }].map((statement) => ({
      ...statement,
      name: nameOf(statement.text),
    }));
    for (const statement of outgoing) {
      if (!statement.name?.parse) continue;
      connection.parse({ text: statement.text, name: statement.name.name });
      statements?.parsing(statement.text, statement.name.name);
    }
    for (const [i, statement] of outgoing.entries()) {
      if (!statement.name) connection.parse({ text: statement.text });
      const bind = { statement: statement.name?.name ?? "", values: statement.values };
      if (i < this.held.length) {
        connection.bind(bind);
        connection.execute({});
      } else {
        // The statement's own messages as pg's Query.prepare writes them.
        connection.bind({ ...bind, portal: this.portal, binary: this.binary });
        connection.describe({ type: "P", name: this.portal || "" });
        this._getRows(connection, this.rows);
      }
    }
  }

  override handleCommandComplete(message: unknown, connection: PgConnection): void {
    if (this.completionsToSkip > 0) {
      this.completionsToSkip--;
      return;
    }
    super.handleCommandComplete(message, connection);
  }

  override handleReadyForQuery(connection: PgConnection): void {
    this.statements?.settled();
    super.handleReadyForQuery(connection);
  }

  override handleError(error: unknown, connection: PgConnection): void {
    this.statements?.settled();
    if (isStalePreparedStatement(error)) forgetAllPreparedStatements();
    super.handleError(error, connection);
  }
}

/**
 * PostgreSQL answers COMMIT with the tag ROLLBACK, and no error, when a statement of the transaction had failed:
 * an error its caller caught and dropped (or one of a held statement, answered to whatever statement it rode with).
 * The transaction then committed nothing, so the commit fails rather than report success.
 */
function refusingRolledBackCommit(result: unknown): unknown {
  if ((result as { command?: unknown } | null)?.command !== "ROLLBACK") return result;
  throw Object.assign(new Error("COMMIT rolled the transaction back: a statement in it had failed"), {
    code: "40000",
  });
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
 * nobody reads and which answers no rows: a transaction's outbox events and audit entries, written at its end, and a
 * patient's insert ahead of its answer) is held and sent with the next, which is usually COMMIT. A registration thus
 * takes one round trip (BEGIN, the insert, the appends and COMMIT) instead of four. An error in a held statement
 * fails the statement it rode with, so the transaction fails and rolls back as it would have; a transaction that
 * ends before any statement sends nothing, and a rollback drops what it held.
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
    // A cursor comes only from a dialect given one (ours has none) and keeps a portal open: nothing may ride with it.
    if (typeof sql !== "string") {
      if (this.beginHeld || this.held.length > 0) throw new Error("pipelined transactions do not run cursors");
      return this.client.query(sql as never);
    }
    const statement = sql.trim().toLowerCase();
    if (statement === "commit" || statement === "rollback") this.inTransaction = false;
    if (statement === "begin") {
      this.inTransaction = true;
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
    const prepared = this.statements !== undefined && isPreparable(sql);
    let result: Promise<unknown>;
    if (held.length === 0 && !prepared) result = this.client.query(sql, parameters as unknown[]);
    // Without parameters pg sends text by the simple protocol, which may carry several commands (a migration's);
    // the extended protocol takes one per Parse. Such a statement waits for what was held, one round trip each.
    else if (parameters.length === 0 && statement !== "commit") result = this.afterEach(held, sql);
    else result = this.pipelined(held, sql, parameters);
    return statement === "commit" ? result.then(refusingRolledBackCommit) : result;
  }

  /** Sends `held` and then `sql` in one round trip, each preparable statement under its connection's name. */
  private async pipelined(held: readonly HeldStatement[], sql: string, parameters: readonly unknown[]) {
    const send = () =>
      new Promise((resolve, reject) => {
        const query = new PipelinedQuery(held, this.statements, sql, parameters, (error, result) =>
          error ? reject(error) : resolve(result),
        );
        this.client.query(query as never);
      });
    try {
      return await send();
    } catch (error) {
      // Outside a transaction nothing ran (a gone or stale name fails at Bind): send it again, parsed anew. In a
      // transaction the storage runs the whole transaction again (the profile's isTransactionConflict).
      if (this.inTransaction || held.length > 0 || !isStalePreparedStatement(error)) throw error;
      return send();
    }
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
    this.inTransaction = false;
    this.beginHeld = false;
    this.held = [];
    this.client.release();
  }
}

/** Each pg connection's named statements, kept for the connection's life across checkouts. */
const statementsOf = new WeakMap<pg.PoolClient, ConnectionStatements>();

function statementsOfClient(client: pg.PoolClient): ConnectionStatements | undefined {
  // A client in pg's pipeline mode has several queries in flight, so answers could not be matched to Parses.
  if ((client as unknown as { pipeline?: boolean }).pipeline) return undefined;
  let statements = statementsOf.get(client);
  if (!statements) {
    const created = new ConnectionStatements();
    statements = created;
    statementsOf.set(client, created);
    // Every ParseComplete the server sends on this connection, in order; only named Parses awaiting one count.
    (client as unknown as { connection: PgConnection }).connection.on("parseComplete", () => created.parsed());
  }
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

/** The pool Kysely checks clients out of: the vendor's or our pg.Pool, its clients wrapped, never patched. */
export function pipelinedTransactions(pool: pg.Pool, options: PipelinedTransactionsOptions = {}): PostgresPool {
  const prepared = options.preparedStatements !== false;
  return {
    connect: async () => {
      const client = await pool.connect();
      return new PipelinedTransactionClient(client, prepared ? statementsOfClient(client) : undefined);
    },
    end: () => pool.end(),
  };
}
