import { mkdirSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { inputsHash } from "../../scripts/build.mjs";
import { makeTempDir } from "../support/temp-dir.js";

// scripts/build.mjs rebuilds a package only when this hash differs from the one stored in its dist/.
describe("incremental build: the inputs hash", () => {
  const temp = makeTempDir();
  afterAll(() => temp.remove());
  const dir = temp.dir;
  mkdirSync(join(dir, "src", "nested"), { recursive: true });
  writeFileSync(join(dir, "package.json"), "{}");
  writeFileSync(join(dir, "src", "index.ts"), "export const a = 1;\n");
  writeFileSync(join(dir, "src", "nested", "b.ts"), "export const b = 2;\n");

  it("is stable while nothing changes, and changes with any source, the package.json or a new file", () => {
    const first = inputsHash(dir);
    expect(inputsHash(dir)).toBe(first);
    writeFileSync(join(dir, "src", "nested", "b.ts"), "export const b = 3;\n");
    const edited = inputsHash(dir);
    expect(edited).not.toBe(first);
    writeFileSync(join(dir, "package.json"), '{"name":"x"}');
    const manifest = inputsHash(dir);
    expect(manifest).not.toBe(edited);
    writeFileSync(join(dir, "src", "c.ts"), "");
    expect(inputsHash(dir)).not.toBe(manifest);
  });

  it("ignores test files, which the build does not read", () => {
    const before = inputsHash(dir);
    writeFileSync(join(dir, "src", "index.test.ts"), "it('x', () => {});\n");
    expect(inputsHash(dir)).toBe(before);
  });
});
