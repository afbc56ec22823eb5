import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  addressVariablesNotB,
  compareShape,
  documentedReplies,
  examplesOf,
  openPracticeInstalls,
} from "./doc-examples.js";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

const fence = "```";

describe("reading a page's examples", () => {
  const page = [
    "Intro",
    `${fence}sh`,
    "npm install && npm start   # not run",
    "# a comment line",
    'ID=$(curl -s "$B/x" \\',
    "  -H 'a: b' | jq .id)",
    "curl -s $B/y -d '{",
    '  "k": 1}\'   # 404',
    fence,
    "",
    `${fence}json`,
    '{"a": 1}',
    fence,
    `${fence}sh`,
    "npx openpractice import icd10cm ./codes.txt",
    "echo done",
    fence,
    `${fence}json`,
    '{"not": "a reply: no curl in the block before"}',
    fence,
  ].join("\n");

  it("joins continued lines and open quotes, leaves out comments and what it does not run, and reads `# NNN`", () => {
    const { script, curls } = examplesOf(page);
    expect(curls.map((c) => [c.index, c.expected])).toEqual([
      [0, undefined],
      [1, 404],
    ]);
    expect(curls[1]?.text).toBe("curl -s $B/y -d '{\n  \"k\": 1}'   # 404");
    expect(script).not.toContain("npm install");
    expect(script).not.toContain("icd10cm");
    expect(script).toContain("__example=2\necho done");
  });

  it("takes the json block right after a block of curls as the reply of its last curl, and nothing else", () => {
    expect(documentedReplies(page)).toEqual([{ line: 11, example: 1, reply: { a: 1 } }]);
  });
});

describe("comparing a documented reply's shape with a real one", () => {
  it("names keys missing on either side and values of another type, by path", () => {
    expect(compareShape({ a: 1, b: { c: "x" } }, { a: "1", b: { d: "y" } })).toEqual([
      "$.a: documented number, got string",
      "$.b.c: documented, not returned",
      "$.b.d: returned, not documented",
    ]);
  });

  it("reads the first element of arrays, a `…` key as an open object, and a documented null as any value", () => {
    expect(
      compareShape({ list: [{ id: 1 }], "…": "…", gone: null }, { list: [{ id: 2 }], extra: true, gone: 5 }),
    ).toEqual([]);
    expect(compareShape({ list: [{ id: 1 }] }, { list: [{ id: "2" }] })).toEqual([
      "$.list[0].id: documented number, got string",
    ]);
  });
});

describe("the address the examples use", () => {
  it("is named B wherever a page sets it (a page that says BASE= and uses $B is caught)", () => {
    const page = [
      "Set `BASE=http://127.0.0.1:8080`.",
      `${fence}sh`,
      "B=http://127.0.0.1:8080",
      'curl -s "$B/x"',
      fence,
    ];
    expect(addressVariablesNotB(page.join("\n"))).toEqual(["BASE"]);
  });

  it("is named B on every documented page", () => {
    const pages = [
      "README.md",
      ...readdirSync(join(ROOT, "docs"))
        .filter((f) => f.endsWith(".md"))
        .map((f) => `docs/${f}`),
    ];
    const wrong = pages.flatMap((page) =>
      addressVariablesNotB(readFileSync(join(ROOT, page), "utf8")).map((name) => `${page}: ${name}`),
    );
    expect(wrong).toEqual([]);
  });
});

describe("reading a page's install lines", () => {
  it("takes each npm install naming an @openpractice package, continued lines joined, comments dropped", () => {
    const page = [
      `${fence}sh`,
      "npm install && npm start   # not ours",
      "npm install @openpractice/core @openpractice/http express \\",
      "  @openpractice/sqlite kysely better-sqlite3      # or another engine",
      "npm install jsonwebtoken",
      fence,
      "",
      `${fence}sh`,
      "npm install --save-dev @openpractice/testing vitest",
      fence,
      `${fence}ts`,
      "// npm install @openpractice/client (not a shell block)",
      fence,
    ].join("\n");
    expect(openPracticeInstalls(page)).toEqual([
      {
        line: 1,
        args: [
          "@openpractice/core",
          "@openpractice/http",
          "express",
          "@openpractice/sqlite",
          "kysely",
          "better-sqlite3",
        ],
      },
      { line: 8, args: ["--save-dev", "@openpractice/testing", "vitest"] },
    ]);
  });
});
