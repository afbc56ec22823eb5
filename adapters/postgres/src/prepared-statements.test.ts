import { PREPARABLE, SENT_WITH_NEXT_STATEMENT } from "@openpractice/kysely";
import { describe, expect, it } from "vitest";
import { preparedStatementsOf } from "./postgres-storage.js";
import {
  ConnectionStatements,
  forgetAllPreparedStatements,
  isPreparable,
  isStalePreparedStatement,
} from "./prepared-statements.js";

describe("named statements of one connection", () => {
  it("names a text once the server answered its Parse, in the order the Parses were written", () => {
    const statements = new ConnectionStatements();
    const a = statements.nameFor("insert a");
    const b = statements.nameFor("insert b");
    expect(a).toEqual({ name: "openpractice_1", parse: true });
    expect(b).toEqual({ name: "openpractice_2", parse: true });
    statements.parsing("insert a", "openpractice_1");
    statements.parsing("insert b", "openpractice_2");
    statements.parsed(); // the answer to a's Parse
    statements.settled(); // an error: b's Parse was skipped
    expect(statements.nameFor("insert a")).toEqual({ name: "openpractice_1", parse: false });
    // b is parsed again under a name never used before.
    expect(statements.nameFor("insert b")).toEqual({ name: "openpractice_3", parse: true });
  });

  it("ignores the answers to unnamed Parses and forgets every name when one went stale anywhere", () => {
    const statements = new ConnectionStatements();
    statements.parsed(); // an unnamed statement's ParseComplete: nothing awaited it
    expect(statements.nameFor("insert a")?.parse).toBe(true);
    statements.parsing("insert a", "openpractice_1");
    statements.parsed();
    expect(statements.nameFor("insert a")?.parse).toBe(false);
    forgetAllPreparedStatements();
    expect(statements.nameFor("insert a")).toEqual({ name: "openpractice_2", parse: true });
  });

  it("sends texts unnamed past 256 names on a connection", () => {
    const statements = new ConnectionStatements();
    for (let i = 0; i < 256; i++) {
      const name = statements.nameFor(`insert ${i}`);
      if (!name) throw new Error(`no name for ${i}`);
      statements.parsing(`insert ${i}`, name.name);
      statements.parsed();
    }
    expect(statements.nameFor("insert 256")).toBeUndefined();
    expect(statements.nameFor("insert 255")?.parse).toBe(false);
  });

  it("knows the marked statements and the errors of a gone or stale statement", () => {
    expect(isPreparable(`${PREPARABLE}insert into t values ($1)`)).toBe(true);
    expect(isPreparable(`${SENT_WITH_NEXT_STATEMENT}${PREPARABLE}with x as (insert …) insert …`)).toBe(true);
    expect(isPreparable("insert into t values ($1)")).toBe(false);
    expect(isPreparable(`select 1 -- ${PREPARABLE}`)).toBe(false);
    expect(
      isStalePreparedStatement({ code: "26000", message: 'prepared statement "openpractice_1" does not exist' }),
    ).toBe(true);
    expect(isStalePreparedStatement({ code: "0A000", message: "cached plan must not change result type" })).toBe(true);
    expect(isStalePreparedStatement({ code: "0A000", message: "something else unsupported" })).toBe(false);
    expect(isStalePreparedStatement({ code: "23505" })).toBe(false);
  });
});

describe("the preparedStatements URL parameter", () => {
  it("is on by default and taken out of the URL pg is given", () => {
    expect(preparedStatementsOf("postgres://u@127.0.0.1:5432/db")).toEqual({
      url: "postgres://u@127.0.0.1:5432/db",
      preparedStatements: true,
    });
    for (const off of ["false", "0", "FALSE"])
      expect(preparedStatementsOf(`postgres://u:p@127.0.0.1/db?sslmode=disable&preparedStatements=${off}`)).toEqual({
        url: "postgres://u:p@127.0.0.1/db?sslmode=disable",
        preparedStatements: false,
      });
    expect(preparedStatementsOf("postgres://u@127.0.0.1/db?preparedStatements=true").preparedStatements).toBe(true);
  });
});
