import { PREPARABLE, SENT_WITH_NEXT_STATEMENT } from "@openpractice/kysely";
import { describe, expect, it } from "vitest";
import { preparedStatementsOf } from "./postgres-storage.js";
import {
  ConnectionStatements,
  forgetAllPreparedStatements,
  isPreparable,
  isStalePreparedStatement,
} from "./prepared-statements.js";

const NAME = /^openpractice_[0-9a-f]{8}_\d+$/;

/** Names a text and has the server answer its Parse. */
function parsedName(statements: ConnectionStatements, text: string): string {
  const name = statements.nameFor(text);
  if (!name?.parse) throw new Error(`expected a new name for ${text}`);
  statements.parsing(text, name.name);
  statements.parsed();
  return name.name;
}

describe("named statements of one connection", () => {
  it("keeps a name once the server answered its Parse, in the order written; retires one left unanswered", () => {
    const statements = new ConnectionStatements();
    const a = statements.nameFor("insert a");
    const b = statements.nameFor("insert b");
    if (!a || !b) throw new Error("expected names");
    expect([a.parse, b.parse]).toEqual([true, true]);
    expect(a.name).toMatch(NAME);
    expect(b.name).not.toBe(a.name);
    statements.parsing("insert a", a.name);
    statements.parsing("insert b", b.name);
    statements.parsed(); // the answer to a's Parse
    statements.settled(); // an error: b's Parse was skipped, or not answered yet
    expect(statements.nameFor("insert a")).toEqual({ name: a.name, parse: false });
    // b is parsed again under a name never used before; its old name is closed at the next exchange.
    const again = statements.nameFor("insert b");
    expect(again?.parse).toBe(true);
    expect(again?.name).not.toBe(b.name);
    expect(statements.retiredNames()).toEqual([b.name]);
    expect(statements.retiredNames()).toEqual([]);
  });

  it("ignores the answers to unnamed Parses; forgetting retires every kept name for closing", () => {
    const statements = new ConnectionStatements();
    statements.parsed(); // an unnamed statement's ParseComplete: nothing awaited it
    const a = parsedName(statements, "insert a");
    expect(statements.nameFor("insert a")).toEqual({ name: a, parse: false });
    forgetAllPreparedStatements();
    const next = statements.nameFor("insert a");
    expect(next?.parse).toBe(true);
    expect(next?.name).not.toBe(a);
    expect(statements.retiredNames()).toEqual([a]);
  });

  it("a second name parsed for one text is retired, the first kept", () => {
    const statements = new ConnectionStatements();
    const first = statements.nameFor("insert a");
    const second = statements.nameFor("insert a");
    if (!first || !second) throw new Error("expected names");
    statements.parsing("insert a", first.name);
    statements.parsing("insert a", second.name);
    statements.parsed();
    statements.parsed();
    expect(statements.nameFor("insert a")).toEqual({ name: first.name, parse: false });
    expect(statements.retiredNames()).toEqual([second.name]);
  });

  it("holds at most 256 names, counting those awaiting an answer and those not yet closed", () => {
    const statements = new ConnectionStatements();
    for (let i = 0; i < 255; i++) parsedName(statements, `insert ${i}`);
    const last = statements.nameFor("insert 255");
    if (!last) throw new Error("expected a name");
    statements.parsing("insert 255", last.name);
    expect(statements.nameFor("insert 256")).toBeUndefined();
    statements.settled(); // unanswered: retired, still counted until closed
    expect(statements.nameFor("insert 256")).toBeUndefined();
    expect(statements.retiredNames()).toEqual([last.name]);
    expect(statements.nameFor("insert 256")?.parse).toBe(true);
    expect(statements.nameFor("insert 254")?.parse).toBe(false);
  });

  it("knows the marked statements and the errors of a gone, taken or stale statement", () => {
    expect(isPreparable(`${PREPARABLE}insert into t values ($1)`)).toBe(true);
    expect(isPreparable(`${SENT_WITH_NEXT_STATEMENT}${PREPARABLE}with x as (insert …) insert …`)).toBe(true);
    expect(isPreparable("insert into t values ($1)")).toBe(false);
    expect(isPreparable(`select 1 -- ${PREPARABLE}`)).toBe(false);
    expect(isStalePreparedStatement({ code: "26000", message: 'prepared statement "x" does not exist' })).toBe(true);
    expect(isStalePreparedStatement({ code: "42P05", message: 'prepared statement "x" already exists' })).toBe(true);
    expect(isStalePreparedStatement({ code: "0A000", message: "cached plan must not change result type" })).toBe(true);
    // In the server's language: the routine says it.
    expect(
      isStalePreparedStatement({
        code: "0A000",
        routine: "RevalidateCachedQuery",
        message: "gecachter Plan darf den Ergebnistyp nicht ändern",
      }),
    ).toBe(true);
    expect(isStalePreparedStatement({ code: "0A000", message: "something else unsupported" })).toBe(false);
    expect(isStalePreparedStatement({ code: "23505" })).toBe(false);
  });
});

describe("the preparedStatements URL parameter", () => {
  it("is on by default and taken out of the connection string pg is given, which is otherwise left as written", () => {
    for (const url of [
      "postgres://u@127.0.0.1:5432/db",
      "postgres://user:pass@/db?host=/var/run/postgresql",
      "/var/run/postgresql db",
      "postgres://u:p%40ss@127.0.0.1/db?sslmode=disable",
    ])
      expect(preparedStatementsOf(url)).toEqual({ url, preparedStatements: true });
    for (const off of ["false", "0", "FALSE", "off", "no"]) {
      expect(preparedStatementsOf(`postgres://u:p@127.0.0.1/db?sslmode=disable&preparedStatements=${off}`)).toEqual({
        url: "postgres://u:p@127.0.0.1/db?sslmode=disable",
        preparedStatements: false,
      });
      expect(preparedStatementsOf(`postgres://u:p@/db?preparedStatements=${off}&host=/run/pg`)).toEqual({
        url: "postgres://u:p@/db?host=/run/pg",
        preparedStatements: false,
      });
    }
    expect(preparedStatementsOf("postgres://u@127.0.0.1/db?preparedStatements=false")).toEqual({
      url: "postgres://u@127.0.0.1/db",
      preparedStatements: false,
    });
    expect(preparedStatementsOf("postgres://u@127.0.0.1/db?preparedStatements=true").preparedStatements).toBe(true);
  });
});
