import { readdirSync, readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

/**
 * pg's internals: its connection object and message writers, Query's protocol hooks and private members, its
 * per-connection statement lists, its lib/ modules. A pg minor release may change any of them; the adapter ships
 * inside vendors' products, so it uses pg's documented API only (issue 52).
 */
const PRIVATE_PG_API: ReadonlyArray<[string, RegExp]> = [
  ["pg's connection object", /\.connection\b(?!\s*\()/],
  ["a member pg keeps private (underscore)", /\._[A-Za-z]\w*/],
  ["Query's protocol hooks", /\b(prepare|submit|handle[A-Z]\w*|requiresPreparation)\s*\(/],
  ["a subclass of pg's Query", /extends\s+(pg\.)?Query\b/],
  ["pg's statement lists", /\b(parsedStatements|submittedNamedStatements)\b/],
  ["a module inside pg", /["']pg\/lib\//],
  ["the wire protocol package", /["']pg-protocol/],
];

const SOURCE = fileURLToPath(new URL(".", import.meta.url));

/** The adapter's shipped files: every .ts under src/ but the tests. */
const shipped = readdirSync(SOURCE, { recursive: true, encoding: "utf8" })
  .filter((file) => /\.ts$/.test(file) && !/\.test\.ts$/.test(file))
  .map((file) => ({ file, text: readFileSync(`${SOURCE}/${file}`, "utf8") }));

describe("the PostgreSQL adapter uses pg's public API only", () => {
  it("finds the adapter's files", () => {
    expect(shipped.map((s) => s.file)).toEqual(
      expect.arrayContaining(["pipelined-transactions.ts", "prepared-statements.ts", "postgres-storage.ts"]),
    );
  });

  it("names none of pg's internals", () => {
    const found = shipped.flatMap(({ file, text }) =>
      text
        .split("\n")
        .flatMap((line, i) =>
          PRIVATE_PG_API.filter(([, pattern]) => pattern.test(line)).map(([what]) => `${file}:${i + 1}: ${what}`),
        ),
    );
    expect(found).toEqual([]);
  });

  it("would see the private API the adapter once used", () => {
    const before = [
      "class PipelinedQuery extends pg.Query {",
      '(client as unknown as { connection: PgConnection }).connection.on("parseComplete", () => created.parsed());',
      "this._getRows(connection, this.rows);",
      "override prepare(connection: PgConnection): void {",
      'import pgUtils from "pg/lib/utils.js";',
    ];
    for (const line of before)
      expect(
        PRIVATE_PG_API.some(([, pattern]) => pattern.test(line)),
        line,
      ).toBe(true);
  });
});
