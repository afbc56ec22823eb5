import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { optionsOf, optionsTablesOfDocs } from "../../scripts/options-tables.mjs";
import { makeTempDir } from "../support/temp-dir.js";

// The options of createPractice and createHttpHandler are documented from their types (scripts/options-tables.mjs):
// an option added, removed or described anew in the type fails here until the page is regenerated.
describe("the options tables of the docs", () => {
  const tables = optionsTablesOfDocs();

  it("docs/embedding.md has the tables of createPractice and createHttpHandler", () => {
    expect(tables.map((t) => `${t.page} ${t.name}`)).toEqual(
      expect.arrayContaining(["docs/embedding.md PracticeOptions", "docs/embedding.md HttpHandlerOptions"]),
    );
  });

  it.each(tables.map((t) => [`${t.page} ${t.name}`, t] as const))(
    "%s is the type's (regenerate: node scripts/options-tables.mjs --write)",
    (_name, table) => {
      expect(table.written).toBe(table.generated);
    },
  );

  it("an option without a JSDoc comment is refused, naming it", () => {
    const temp = makeTempDir("options-table-");
    try {
      const file = join(temp.dir, "options.ts");
      writeFileSync(file, "export interface Opts {\n  /** Documented. */\n  a?: number;\n  b: string;\n}\n");
      expect(() => optionsOf(file, "Opts")).toThrow(`Opts.b (${file}) has no JSDoc to document it with`);
    } finally {
      temp.remove();
    }
  });
});
