import { describe, expect, it } from "vitest";
import { nestsDeeperThan } from "./request-body.js";

describe("nestsDeeperThan", () => {
  it.each([
    ["[[[]]]", 3, false],
    ["[[[[]]]]", 3, true],
    ['{"a":{"b":[1]}}', 3, false],
    ['{"a":{"b":[{}]}}', 3, true],
    // Brackets inside strings do not count, whatever the escapes around them.
    ['["[[[[[[", "{{{{"]', 1, false],
    ['["\\\\"]', 1, false],
    ['["\\"[[["]', 1, false],
    ['["\\\\\\"[[["]', 1, false],
    ['["\\\\", [[]]]', 2, true],
    ['[["\\\\\\\\"]]', 2, false],
    // Malformed text is JSON.parse's to refuse (it stops at the first error, never deeper than the count so far).
    ['["[[[[', 1, false],
    ["]]]][[", 1, false],
  ])("%s with limit %i: %s", (text, limit, deeper) => expect(nestsDeeperThan(text, limit)).toBe(deeper));

  it("agrees with the parsed value's depth on every prefix nesting of a mixed body", () => {
    for (let levels = 1; levels <= 70; levels++) {
      const text = "[".repeat(levels) + '"]}[{\\\\"' + "]".repeat(levels);
      expect(JSON.parse(text)).toBeDefined();
      expect(nestsDeeperThan(text, 64)).toBe(levels > 64);
    }
  });
});
