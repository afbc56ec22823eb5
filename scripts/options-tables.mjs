#!/usr/bin/env node
// The options tables of the docs, generated from the interfaces that declare the options: one row per property, its
// type as written and its JSDoc, so a page lists exactly the options the types have. A table sits between
//
//   <!-- options: PracticeOptions in packages/core/src/practice.ts -->
//   <!-- /options -->
//
//   node scripts/options-tables.mjs           says which tables differ from the types (exit 1 if any does)
//   node scripts/options-tables.mjs --write   rewrites them
//
// test/docs/options-tables.test.ts fails when a page's table and its interface differ, or an option has no JSDoc.
import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import ts from "typescript";

const root = fileURLToPath(new URL("..", import.meta.url));
const MARKER = /(<!-- options: (\w+) in (\S+) -->\n)([\s\S]*?)(<!-- \/options -->)/g;

/** Text for one table cell: one line, pipes escaped. */
const cell = (text) => text.replace(/\s+/g, " ").trim().replaceAll("|", "\\|");

/** The comment of a declaration as written: JSDoc would read "@openpractice/x12" in the prose as a tag. */
const commentOf = (node) =>
  ts
    .getJSDocCommentsAndTags(node)
    .filter(ts.isJSDoc)
    .map((d) =>
      d
        .getText()
        .replace(/^\/\*\*|\*\/$/g, "")
        .replace(/^\s*\* ?/gm, ""),
    )
    .join(" ");

/** The rows of an interface: each property's name, whether it is required, its type and its JSDoc. */
export function optionsOf(file, name) {
  const source = ts.createSourceFile(file, readFileSync(resolve(root, file), "utf8"), ts.ScriptTarget.Latest, true);
  const declaration = source.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === name);
  if (!declaration) throw new Error(`${file} declares no interface ${name}`);
  const own = declaration.members.filter(ts.isPropertySignature).map((member) => {
    const option = member.name.getText(source);
    const doc = commentOf(member);
    if (doc.trim() === "") throw new Error(`${name}.${option} (${file}) has no JSDoc to document it with`);
    return { option, required: !member.questionToken, type: member.type?.getText(source) ?? "unknown", doc };
  });
  return declaration.heritageClauses
    ? [...own, ...inheritedOptionsOf(file, name, new Set(own.map((o) => o.option)))]
    : own;
}

/**
 * The properties an interface inherits (createPractice's module options, declared with their modules), read with
 * the type checker: each documented by the comment of the declaration it comes from.
 */
function inheritedOptionsOf(file, name, own) {
  const path = resolve(root, file);
  const program = ts.createProgram([path], {
    strict: true,
    exactOptionalPropertyTypes: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    customConditions: ["source"],
    skipLibCheck: true,
    noEmit: true,
  });
  const checker = program.getTypeChecker();
  const declaration = program
    .getSourceFile(path)
    ?.statements.find((s) => ts.isInterfaceDeclaration(s) && s.name.text === name);
  if (!declaration) throw new Error(`${file} declares no interface ${name}`);
  return checker
    .getPropertiesOfType(checker.getTypeAtLocation(declaration.name))
    .filter((property) => !own.has(property.name))
    .map((property) => {
      const origin = property.valueDeclaration ?? property.declarations?.[0];
      const doc = origin ? commentOf(origin) : "";
      if (doc.trim() === "") throw new Error(`${name}.${property.name} (inherited) has no JSDoc to document it with`);
      const type = checker.typeToString(checker.getNonNullableType(checker.getTypeOfSymbol(property)));
      const nullable = checker.typeToString(checker.getTypeOfSymbol(property)).split(" | ").includes("null");
      return {
        option: property.name,
        required: (property.flags & ts.SymbolFlags.Optional) === 0,
        type: nullable ? `${type} | null` : type,
        doc,
      };
    });
}

/** The Markdown table of an interface's options. */
export function optionsTable(file, name) {
  const rows = optionsOf(file, name).map(
    ({ option, required, type, doc }) =>
      `| \`${option}\` | \`${cell(type)}\` | ${required ? "**required.** " : ""}${cell(doc)} |`,
  );
  return ["| Option | Type | What it does |", "|---|---|---|", ...rows].join("\n");
}

/** Every page of docs/ with a generated table, each table as written and as the types say it. */
export function optionsTablesOfDocs() {
  const docs = join(root, "docs");
  const out = [];
  for (const page of readdirSync(docs)
    .filter((f) => f.endsWith(".md"))
    .sort()) {
    const text = readFileSync(join(docs, page), "utf8");
    for (const m of text.matchAll(MARKER))
      out.push({ page: `docs/${page}`, name: m[2], written: m[4].trim(), generated: optionsTable(m[3], m[2]) });
  }
  return out;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const write = process.argv.includes("--write");
  const stale = optionsTablesOfDocs().filter((t) => t.written !== t.generated);
  if (write)
    for (const page of new Set(stale.map((t) => t.page))) {
      const path = join(root, page);
      const text = readFileSync(path, "utf8").replace(
        MARKER,
        (_all, open, name, file, _table, close) => `${open}${optionsTable(file, name)}\n${close}`,
      );
      writeFileSync(path, text);
    }
  for (const t of stale)
    process.stdout.write(`${t.page}: ${t.name} ${write ? "rewritten" : "differs from its type"}\n`);
  if (!write && stale.length > 0) process.exit(1);
}
