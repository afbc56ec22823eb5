import { PREPARABLE, SENT_WITH_NEXT_STATEMENT } from "@openpractice/kysely";
import { describe, expect, it } from "vitest";
import { postgresUrlSettings } from "./postgres-storage.js";
import {
  ConnectionStatements,
  forgetAllPreparedStatements,
  isPreparable,
  isStalePreparedStatement,
} from "./prepared-statements.js";

const NAME = /^openpractice_[0-9a-f]{8}_\d+$/;
const insert = (table: string) => `${PREPARABLE}insert into ${table} values ($1)`;

describe("named statements", () => {
  it("names only the marked statements, one name per text for every connection", () => {
    const one = new ConnectionStatements();
    const other = new ConnectionStatements();
    const a = one.nameFor(insert("a"));
    expect(a).toMatch(NAME);
    expect(one.nameFor(insert("a"))).toBe(a);
    expect(other.nameFor(insert("a"))).toBe(a);
    expect(one.nameFor(insert("b"))).not.toBe(a);
    expect(one.nameFor("insert into a values ($1)")).toBeUndefined();
    expect(one.retiredNames()).toEqual([]);
  });

  it("forgetting gives every text a new name; each connection retires the old names it was given, once", () => {
    const one = new ConnectionStatements();
    const other = new ConnectionStatements();
    const a = one.nameFor(insert("forget a"));
    const b = one.nameFor(insert("forget b"));
    forgetAllPreparedStatements();
    const renamed = other.nameFor(insert("forget a"));
    expect(renamed).toMatch(NAME);
    expect(renamed).not.toBe(a);
    expect(one.nameFor(insert("forget a"))).toBe(renamed);
    expect(one.retiredNames()).toEqual([a, b]);
    expect(one.retiredNames()).toEqual([]);
    // `other` was given no name before: nothing of its to close.
    expect(other.retiredNames()).toEqual([]);
  });

  it("names at most 256 texts in a generation; past it a text goes out unnamed", () => {
    forgetAllPreparedStatements();
    const statements = new ConnectionStatements();
    for (let i = 0; i < 256; i++) expect(statements.nameFor(insert(`t${i}`))).toMatch(NAME);
    expect(statements.nameFor(insert("t256"))).toBeUndefined();
    expect(statements.nameFor(insert("t0"))).toMatch(NAME);
    forgetAllPreparedStatements();
    expect(statements.nameFor(insert("t256"))).toMatch(NAME);
    expect(statements.retiredNames()).toHaveLength(256);
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

describe("the adapter's URL parameters", () => {
  it("are on by default and taken out of the connection string pg is given, which is otherwise left as written", () => {
    for (const url of [
      "postgres://u@127.0.0.1:5432/db",
      "postgres://user:pass@/db?host=/var/run/postgresql",
      "/var/run/postgresql db",
      "postgres://u:p%40ss@127.0.0.1/db?sslmode=disable",
    ])
      expect(postgresUrlSettings(url)).toEqual({ url, preparedStatements: true, pipelining: true });
    for (const off of ["false", "0", "FALSE", "off", "no"]) {
      expect(postgresUrlSettings(`postgres://u:p@127.0.0.1/db?sslmode=disable&preparedStatements=${off}`)).toEqual({
        url: "postgres://u:p@127.0.0.1/db?sslmode=disable",
        preparedStatements: false,
        pipelining: true,
      });
      expect(postgresUrlSettings(`postgres://u:p@/db?pipelining=${off}&host=/run/pg`)).toEqual({
        url: "postgres://u:p@/db?host=/run/pg",
        preparedStatements: true,
        pipelining: false,
      });
    }
    expect(postgresUrlSettings("postgres://u@127.0.0.1/db?preparedStatements=false&pipelining=no")).toEqual({
      url: "postgres://u@127.0.0.1/db",
      preparedStatements: false,
      pipelining: false,
    });
    expect(postgresUrlSettings("postgres://u@127.0.0.1/db?preparedStatements=true").preparedStatements).toBe(true);
  });
});
