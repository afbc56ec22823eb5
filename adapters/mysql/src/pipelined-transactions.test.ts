import { createPool } from "mysql2";
import { describe, expect, it } from "vitest";
import { allowsMultipleStatements, mysqlUrlSettings } from "./pipelined-transactions.js";

describe("multiple statements per text", () => {
  it("are off for a URL unless it says multipleStatements=true; the parameter is taken out of the URL", () => {
    const url = "mysql://op:secret@127.0.0.1:3306/openpractice";
    expect(mysqlUrlSettings(url)).toEqual({ url, multipleStatements: undefined });
    for (const on of ["true", "1", "TRUE", "on", "yes"])
      expect(mysqlUrlSettings(`${url}?multipleStatements=${on}`)).toEqual({ url, multipleStatements: true });
    for (const off of ["false", "0", "no", ""])
      expect(mysqlUrlSettings(`${url}?multipleStatements=${off}`)).toEqual({ url, multipleStatements: false });
    expect(mysqlUrlSettings(`${url}?charset=utf8mb4&multipleStatements=true&connectTimeout=3000`)).toEqual({
      url: `${url}?charset=utf8mb4&connectTimeout=3000`,
      multipleStatements: true,
    });
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
