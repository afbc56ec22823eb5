import { PREPARABLE, SENT_WITH_NEXT_STATEMENT } from "@openpractice/kysely";

/**
 * A statement marked PREPARABLE (an insert compiled by shape) is parsed once per connection as a named prepared
 * statement; later calls only bind their values to it. The server then skips parsing and planning the text: a
 * registration's two inserts took 0.25 to 0.38 ms of the server's CPU named against 0.41 to 0.60 unnamed
 * (2026-11-27). Their plans do not depend on the values (inserts), so a generic plan costs nothing.
 */
export function isPreparable(sql: string): boolean {
  return sql.startsWith(PREPARABLE) || sql.startsWith(SENT_WITH_NEXT_STATEMENT + PREPARABLE);
}

/** Named statements kept per connection at most; a text past the bound is sent unnamed, as without names. */
const MAX_NAMED_PER_CONNECTION = 256;

/**
 * Bumped when the server reports a named statement gone or stale anywhere: every connection then forgets its names
 * and parses its statements again under new ones.
 */
let generation = 0;

/**
 * SQLSTATE 26000: the named statement does not exist on the connection (something ran DEALLOCATE or DISCARD ALL,
 * or a pooler moved the session); 0A000 "cached plan must not change result type": a migration changed a table
 * whose rows a named statement returns. Either way the connection's names are forgotten (all connections', since a
 * migration reaches all of them) and the transaction may run again.
 */
export function isStalePreparedStatement(error: unknown): boolean {
  const e = error as { code?: unknown; message?: unknown } | null;
  return (
    e?.code === "26000" ||
    (e?.code === "0A000" && typeof e.message === "string" && e.message.includes("cached plan must not change"))
  );
}

export function forgetAllPreparedStatements(): void {
  generation++;
}

/** A statement to send: unnamed, named and new to the connection (`parse`), or named and already parsed there. */
export interface StatementName {
  name: string;
  parse: boolean;
}

/**
 * The named statements of one connection, by text. A name is kept only once the server has answered its Parse
 * (`parsed`), so a Parse skipped after an earlier error in the same round trip is sent again next time, under a
 * new name: names are never reused, so a name the server may or may not hold is never parsed twice.
 */
export class ConnectionStatements {
  private readonly byText = new Map<string, string>();
  private seenGeneration = generation;
  private counter = 0;
  /** Named Parses written and not yet answered, in order: the server answers them in that order. */
  private awaitingParse: Array<{ text: string; name: string }> = [];

  /** The name to send `text` under; undefined to send it unnamed (not preparable, or the bound reached). */
  nameFor(text: string): StatementName | undefined {
    if (this.seenGeneration !== generation) {
      this.byText.clear();
      this.seenGeneration = generation;
    }
    const name = this.byText.get(text);
    if (name !== undefined) return { name, parse: false };
    if (this.byText.size + this.awaitingParse.length >= MAX_NAMED_PER_CONNECTION) return undefined;
    return { name: `openpractice_${++this.counter}`, parse: true };
  }

  /** Call for each named Parse as it is written, in order. */
  parsing(text: string, name: string): void {
    this.awaitingParse.push({ text, name });
  }

  /** The server answered a Parse (ParseComplete): the oldest named one awaiting it, if any, is kept. */
  parsed(): void {
    const statement = this.awaitingParse.shift();
    if (statement && this.seenGeneration === generation) this.byText.set(statement.text, statement.name);
  }

  /** The round trip ended (ReadyForQuery or an error): Parses still unanswered were skipped by the server. */
  settled(): void {
    this.awaitingParse = [];
  }
}
