import { randomBytes } from "node:crypto";
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

/**
 * Names a connection may hold on the server at most (kept, awaiting their Parse's answer, or retired and not yet
 * closed); past it a text is sent unnamed, as without names.
 */
const MAX_NAMED_PER_CONNECTION = 256;

/**
 * Names are unique in the process (a counter) and between processes (a random part), so that behind a pooler that
 * hands one server session to several clients no two texts ever share a name.
 */
const processPart = randomBytes(4).toString("hex");
let lastNumber = 0;
const newName = () => `openpractice_${processPart}_${++lastNumber}`;

/**
 * Bumped when the server reports a named statement gone, stale or taken anywhere: every connection then retires its
 * names (closing them on the server at its next exchange) and parses its statements again under new ones.
 */
let generation = 0;

/**
 * SQLSTATE 26000: the named statement does not exist on the connection (something ran DEALLOCATE or DISCARD ALL, or
 * a pooler moved the session); 42P05: the name exists already (a pooler gave the session of another client);
 * 0A000 from the plan cache's revalidation ("cached plan must not change result type", in the server's language):
 * a migration changed a table whose rows a named statement returns. Each is raised at Bind, before the statement
 * runs, so the statement or its transaction may run again once every connection forgot its names.
 */
export function isStalePreparedStatement(error: unknown): boolean {
  const e = error as { code?: unknown; routine?: unknown; message?: unknown } | null;
  if (e?.code === "26000" || e?.code === "42P05") return true;
  return (
    e?.code === "0A000" &&
    (e.routine === "RevalidateCachedQuery" ||
      (typeof e.message === "string" && e.message.includes("cached plan must not change")))
  );
}

export function forgetAllPreparedStatements(): void {
  generation++;
}

/** A statement to send: named and new to the connection (`parse`), or named and already parsed there. */
export interface StatementName {
  name: string;
  parse: boolean;
}

/**
 * The named statements of one connection, by text, for a client that runs one query at a time (pg's default). A
 * name is kept only once the server has answered its Parse (`parsed`): a Parse skipped after an earlier error in
 * the same exchange, or unanswered when the query ended early, is retired instead. Retired names (those, the names
 * of a forgotten generation, a second name parsed for one text) are closed at the connection's next exchange
 * (`retiredNames`); names are never reused, so a name the server may or may not hold is never parsed twice.
 */
export class ConnectionStatements {
  private readonly byText = new Map<string, string>();
  private seenGeneration = generation;
  /** Named Parses written and not yet answered, in order: the server answers them in that order. */
  private awaitingParse: Array<{ text: string; name: string }> = [];
  private retired: string[] = [];

  /** The name to send `text` under, given when its messages are written; undefined to send it unnamed. */
  nameFor(text: string): StatementName | undefined {
    this.catchUp();
    const name = this.byText.get(text);
    if (name !== undefined) return { name, parse: false };
    if (this.byText.size + this.awaitingParse.length + this.retired.length >= MAX_NAMED_PER_CONNECTION)
      return undefined;
    return { name: newName(), parse: true };
  }

  /** Call for each named Parse as it is written, in order. */
  parsing(text: string, name: string): void {
    this.awaitingParse.push({ text, name });
  }

  /** The server answered a Parse (ParseComplete): the oldest named one awaiting it, if any, is kept. */
  parsed(): void {
    const statement = this.awaitingParse.shift();
    if (!statement) return;
    this.catchUp();
    if (this.byText.has(statement.text)) this.retired.push(statement.name);
    else this.byText.set(statement.text, statement.name);
  }

  /** The exchange ended (ReadyForQuery or an error): Parses still unanswered may or may not have run. */
  settled(): void {
    for (const statement of this.awaitingParse) this.retired.push(statement.name);
    this.awaitingParse = [];
  }

  /** Names to close on the server before anything else is written; they are forgotten here. */
  retiredNames(): string[] {
    this.catchUp();
    const names = this.retired;
    this.retired = [];
    return names;
  }

  private catchUp(): void {
    if (this.seenGeneration === generation) return;
    for (const name of this.byText.values()) this.retired.push(name);
    this.byText.clear();
    this.seenGeneration = generation;
  }
}
