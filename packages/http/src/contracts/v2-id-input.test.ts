import { MAX_STORED_ID } from "@openpractice/core";
import { describe, expect, it } from "vitest";
import { STORED_ID_DIGITS } from "./v2-contract.js";

// The id pattern is a hand-written range of decimal numbers; compare it with arithmetic around every digit
// boundary of MAX_STORED_ID and at random.
describe("STORED_ID_DIGITS", () => {
  const pattern = new RegExp(`^${STORED_ID_DIGITS}$`);
  const accepts = (n: number) => n >= 1 && n <= MAX_STORED_ID;

  it("matches exactly the numbers 1 to MAX_STORED_ID", () => {
    const samples = new Set<number>([0, 1, 9, 10, 999_999_999, 1_000_000_000, MAX_STORED_ID, MAX_STORED_ID + 1]);
    const digits = String(MAX_STORED_ID);
    // Every prefix of MAX_STORED_ID followed by each digit and padded with 0s or 9s: each branch's edges.
    for (let i = 0; i < digits.length; i++)
      for (let d = 0; d <= 9; d++)
        for (const pad of ["0", "9"]) samples.add(Number(digits.slice(0, i) + d + pad.repeat(digits.length - i - 1)));
    for (let i = 0; i < 20_000; i++)
      samples.add(Math.floor(Math.random() * 10 ** (1 + Math.floor(Math.random() * 12))));
    for (const n of samples) expect(pattern.test(String(n)), String(n)).toBe(accepts(n));
  });

  it("refuses leading zeros, signs and other text", () => {
    for (const text of ["01", "+1", "-1", "1.0", "1e3", " 1", "", "2147483647 "])
      expect(pattern.test(text)).toBe(false);
  });
});
