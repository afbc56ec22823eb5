import { createPool } from "mysql2";
import { describe, expect, it } from "vitest";
import { allowsMultipleStatements, multipleStatementsOf } from "./pipelined-transactions.js";

describe("multiple statements per text", () => {
  it("are on for a URL unless it says multipleStatements=false", () => {
    expect(multipleStatementsOf("mysql://op:secret@127.0.0.1:3306/openpractice")).toBe(true);
    expect(multipleStatementsOf("mysql://op:secret@127.0.0.1:3306/openpractice?multipleStatements=true")).toBe(true);
    expect(multipleStatementsOf("mysql://op:secret@127.0.0.1:3306/openpractice?multipleStatements=false")).toBe(false);
    expect(multipleStatementsOf("mysql://op:secret@127.0.0.1:3306/openpractice?multipleStatements=0")).toBe(false);
  });

  it("are read off a pool's own settings (no connection is opened)", async () => {
    const on = createPool({ host: "127.0.0.1", multipleStatements: true });
    const off = createPool({ host: "127.0.0.1" });
    // A custom queryFormat would format the joined, already formatted text a second time.
    const custom = createPool({ host: "127.0.0.1", multipleStatements: true, queryFormat: (sql: string) => sql });
    expect([on, off, custom].map(allowsMultipleStatements)).toEqual([true, false, false]);
    await Promise.all([on, off, custom].map((pool) => new Promise((resolve) => pool.end(resolve))));
  });
});
