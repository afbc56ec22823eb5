import { describe, expect, it } from "vitest";
import { isValidNpi, npiCheckDigit } from "./npi.js";

describe("NPI check digit", () => {
  it("accepts the CMS example and refuses a wrong check digit", () => {
    expect(npiCheckDigit("123456789")).toBe(3);
    expect(isValidNpi("1234567893")).toBe(true);
    expect(isValidNpi("1234567890")).toBe(false);
    expect(isValidNpi("123456789")).toBe(false);
  });
});
