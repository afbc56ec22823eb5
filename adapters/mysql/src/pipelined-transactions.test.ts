import { createPool } from "mysql2";
import { describe, expect, it } from "vitest";
import { allowsMultipleStatements, multipleStatementsOf } from "./pipelined-transactions.js";

describe("multiple statements per text", () => {
  it("are on for a URL unless it says multipleStatements=false", () => {
    expect(multipleStatementsOf("mysql://op:secret@127.0.0.1:3306/openpractice")).toBe(true);
    expect(multipleStatementsOf("mysql://op:secret@127.0.0.1:3306/openpractice?multipleStatements=true")).toBe(true);
    expect(multipleStatementsOf("mysql://op:secret@127.0.0.1:3306/openpractice?multipleStatements=false")).toBe(false);
  });

  it("are read off a pool's own settings (no connection is opened)", async () => {
    const on = createPool({ host: "127.0.0.1", multipleStatements: true });
    const off = createPool({ host: "127.0.0.1" });
    expect([allowsMultipleStatements(on), allowsMultipleStatements(off)]).toEqual([true, false]);
    await Promise.all([on, off].map((pool) => new Promise((resolve) => pool.end(resolve))));
  });
});
