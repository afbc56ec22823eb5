import { readdirSync, readFileSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

// The layering docs/architecture.md describes, held against the sources: the kernel imports nothing of core outside
// itself, no feature imports the composition root, features import each other without a circle, and errors are
// built only through the features' typed constructors.
const src = dirname(fileURLToPath(import.meta.url));

const sources = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory()
      ? sources(join(dir, e.name))
      : e.name.endsWith(".ts") && !e.name.endsWith(".test.ts")
        ? [join(dir, e.name)]
        : [],
  );
const files = sources(src).map((f) => relative(src, f));
/** Where a file stands: its folder below src/, or "root" for the files beside index.ts. */
const unitOf = (file: string) => (file.includes("/") ? (file.split("/")[0] as string) : "root");
const importsOf = (file: string): string[] =>
  [...readFileSync(join(src, file), "utf8").matchAll(/(?:from|import)\s*\(?\s*"(\.{1,2}\/[^"]+)"/g)].map((m) =>
    relative(src, resolve(src, dirname(file), (m[1] as string).replace(/\.js$/, ".ts"))),
  );

describe("core's layers", () => {
  it("keeps the kernel free of every other part of core", () => {
    const outside = files
      .filter((f) => unitOf(f) === "kernel")
      .flatMap((f) =>
        importsOf(f)
          .filter((t) => unitOf(t) !== "kernel")
          .map((t) => `${f} -> ${t}`),
      );
    expect(outside).toEqual([]);
  });

  it("keeps the composition root out of the features", () => {
    const up = files
      .filter((f) => unitOf(f) !== "root")
      .flatMap((f) =>
        importsOf(f)
          .filter((t) => unitOf(t) === "root")
          .map((t) => `${f} -> ${t}`),
      );
    expect(up).toEqual([]);
  });

  it("has no circle between feature folders", () => {
    const edges = new Map<string, Set<string>>();
    for (const f of files) {
      const from = unitOf(f);
      for (const t of importsOf(f)) {
        const to = unitOf(t);
        if (from !== to) edges.set(from, (edges.get(from) ?? new Set()).add(to));
      }
    }
    // Depth-first search: a folder met again while it is still on the path closes a circle.
    const circles: string[] = [];
    const done = new Set<string>();
    const visit = (unit: string, path: string[]) => {
      if (path.includes(unit)) return void circles.push([...path.slice(path.indexOf(unit)), unit].join(" -> "));
      if (done.has(unit)) return;
      for (const next of edges.get(unit) ?? []) visit(next, [...path, unit]);
      done.add(unit);
    };
    for (const unit of edges.keys()) visit(unit, []);
    expect(circles).toEqual([]);
  });

  it("builds errors through typed constructors: no `new DomainError(` outside the kernel", () => {
    const raw = files.filter(
      (f) => unitOf(f) !== "kernel" && /new DomainError\s*\(/.test(readFileSync(join(src, f), "utf8")),
    );
    expect(raw).toEqual([]);
  });
});
