import { describe, expect, it } from "vitest";
import type { DomainError } from "../kernel/domain-error.js";
import { jsonDepth, MAX_JSON_DEPTH } from "../kernel/json-depth.js";
import { applyPartialResponse } from "./form-paths.js";

/** An array nesting `levels` arrays (levels 0 is a scalar), built without recursion. */
const nested = (levels: number): unknown => {
  let value: unknown = "leaf";
  for (let i = 0; i < levels; i++) value = [value];
  return value;
};

describe("jsonDepth", () => {
  it.each([
    ["a scalar", 7, 0],
    ["an empty list", [], 1],
    ["an object of lists", { a: [1], b: [[2]] }, 3],
  ])("%s", (_, value, depth) => expect(jsonDepth(value)).toBe(depth));

  it("stops counting past the limit, so any depth (or a cycle) is measured without recursion", () => {
    expect(jsonDepth(nested(100_000))).toBe(MAX_JSON_DEPTH + 1);
    const cycle: Record<string, unknown> = {};
    cycle.self = cycle;
    expect(jsonDepth(cycle, 10)).toBe(11);
  });
});

describe("applyPartialResponse depth", () => {
  it("takes answers that keep the form within MAX_JSON_DEPTH levels", () => {
    const path = "response.a.b";
    const next = applyPartialResponse({ response: {} }, { [path]: nested(MAX_JSON_DEPTH - 3) });
    expect(jsonDepth(next)).toBe(MAX_JSON_DEPTH);
  });

  it("refuses an answer that would nest the form deeper, naming the path, before copying anything", () => {
    const refuse = (partial: Record<string, unknown>) => {
      try {
        applyPartialResponse({ response: {} }, partial);
      } catch (error) {
        return error as DomainError;
      }
      throw new Error("accepted");
    };
    const one = refuse({ "response.a.b": nested(MAX_JSON_DEPTH - 2) });
    expect(one.code).toBe("VALIDATION_FAILED");
    expect(one.details.issues).toEqual([
      { field: "partialResponse.response.a.b", reason: `would nest the form deeper than ${MAX_JSON_DEPTH} levels` },
    ]);
    // 2,500 levels (what overflowed structuredClone): refused, not a stack overflow.
    expect(refuse({ "response.x": nested(2500) }).code).toBe("VALIDATION_FAILED");
  });
});
