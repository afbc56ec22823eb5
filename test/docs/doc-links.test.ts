import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join, normalize } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("../../", import.meta.url));

/** Every Markdown file a reader of a clone opens: the README, CONTRIBUTING, docs/ and the packages' READMEs. */
function pages(): string[] {
  const inDocs = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((e) =>
      e.isDirectory() ? inDocs(join(dir, e.name)) : e.name.endsWith(".md") ? [join(dir, e.name)] : [],
    );
  const readmes = ["packages", "adapters", "examples"].flatMap((dir) =>
    readdirSync(join(ROOT, dir))
      .map((name) => join(dir, name, "README.md"))
      .filter((path) => existsSync(join(ROOT, path))),
  );
  return ["README.md", "CONTRIBUTING.md", ...inDocs("docs"), ...readmes];
}

const withoutCode = (markdown: string) => markdown.replace(/^```[a-z]*\n[\s\S]*?^```/gm, "");

describe("what the documentation points at is in a clone", () => {
  it("every relative link names a file of the repository", () => {
    const broken = pages().flatMap((page) =>
      [...withoutCode(readFileSync(join(ROOT, page), "utf8")).matchAll(/\]\(([^)\s]+)\)/g)]
        .map((m) => m[1] as string)
        .filter((target) => !/^[a-z]+:/.test(target) && !target.startsWith("#"))
        .filter((target) => !existsSync(normalize(join(ROOT, dirname(page), target.split("#")[0] as string))))
        .map((target) => `${page}: ${target}`),
    );
    expect(broken).toEqual([]);
  });

  it("the contract is cited from the repository's copy, never from the development workspace beside it", () => {
    expect(existsSync(join(ROOT, "docs/spec/clinical-practice-service.md"))).toBe(true);
    const outside = pages().filter((page) => readFileSync(join(ROOT, page), "utf8").includes("../shared/spec"));
    expect(outside).toEqual([]);
  });
});
