import { randomBytes } from "node:crypto";
import { PREPARABLE, SENT_WITH_NEXT_STATEMENT } from "@openpractice/kysely";

/**
 * A statement marked PREPARABLE (an insert compiled by shape) is sent as a named prepared statement (pg's public
 * `client.query({ name, text, values })`): pg parses it once per connection and later calls only bind their values
 * to it. The server then skips parsing and planning the text: a registration's two inserts took 0.25 to 0.38 ms of
 * the server's CPU named against 0.41 to 0.60 unnamed (2026-11-27). Their plans do not depend on the values
 * (inserts), so a generic plan costs nothing.
 */
export function isPreparable(sql: string): boolean {
  return sql.startsWith(PREPARABLE) || sql.startsWith(SENT_WITH_NEXT_STATEMENT + PREPARABLE);
}

/**
 * Texts named at most in one generation: each connection then holds at most this many of the current generation's
 * names on the server; past it a text is sent unnamed, as without names.
 */
const MAX_NAMED_TEXTS = 256;

/**
 * Names are unique in the process (a counter) and between processes (a random part), so that behind a pooler that
 * hands one server session to several clients no two texts ever share a name. pg refuses one name for two texts on
 * a connection, and a name here belongs to one text for good.
 */
const processPart = randomBytes(4).toString("hex");
let lastNumber = 0;
const newName = () => `openpractice_${processPart}_${++lastNumber}`;

/**
 * Bumped when the server reports a named statement gone, stale or taken anywhere: every text then gets a new name,
 * which pg parses anew on each connection, and each connection closes its old names at its next checkout.
 */
let generation = 0;
let namesByText = new Map<string, string>();

/**
 * SQLSTATE 26000: the named statement does not exist on the connection (something ran DEALLOCATE or DISCARD ALL, or
 * a pooler moved the session); 42P05: the name exists already (a pooler gave the session of another client);
 * 0A000 from the plan cache's revalidation ("cached plan must not change result type", in the server's language):
 * a migration changed a table whose rows a named statement returns. Each is raised at Bind, before the statement
 * runs, so the statement or its transaction may run again once every text has a new name.
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
  namesByText = new Map();
}

/**
 * The names one pg connection was given, so that it closes those of a forgotten generation (pg keeps no list a
 * caller may edit, and never closes a name itself). pg decides by itself whether a name still needs its Parse on
 * the connection: it parses it with its first use there.
 */
export class ConnectionStatements {
  private seenGeneration = generation;
  private readonly given = new Set<string>();
  private retired: string[] = [];

  /** The name to send `text` under; undefined to send it unnamed (not marked PREPARABLE, or past the limit). */
  nameFor(text: string): string | undefined {
    if (!isPreparable(text)) return undefined;
    this.catchUp();
    let name = namesByText.get(text);
    if (name === undefined) {
      if (namesByText.size >= MAX_NAMED_TEXTS) return undefined;
      name = newName();
      namesByText.set(text, name);
    }
    this.given.add(name);
    return name;
  }

  /** Names of forgotten generations the connection may hold on the server: close them (DEALLOCATE) once. */
  retiredNames(): string[] {
    this.catchUp();
    const names = this.retired;
    this.retired = [];
    return names;
  }

  private catchUp(): void {
    if (this.seenGeneration === generation) return;
    this.retired.push(...this.given);
    this.given.clear();
    this.seenGeneration = generation;
  }
}
