import { describe, expect, it } from "vitest";
import { foldForMatch, searchTerms } from "../kernel/text-match.js";
import { patientIdentityKey, patientSearchText } from "./patient-normalisation.js";

describe("patient normalisation", () => {
  it("folds case, accents and spaces", () => {
    expect(foldForMatch("  Zoë   ÅSA ")).toBe("zoe asa");
  });

  it("makes one identity key for the same person written differently", () => {
    expect(patientIdentityKey("José", "GARCÍA ", "1970-01-01")).toBe(
      patientIdentityKey("jose", "garcia", "1970-01-01"),
    );
    expect(patientIdentityKey("Jose", "Garcia", "1970-01-02")).not.toBe(
      patientIdentityKey("Jose", "Garcia", "1970-01-01"),
    );
  });

  it("puts names, email and phone digits in the search text", () => {
    expect(
      patientSearchText({
        firstName: "Ada",
        middleName: null,
        lastName: "Byron",
        email: "ada@x.org",
        phone: "(555) 010-2030",
      }),
    ).toBe("ada byron ada@x.org 5550102030");
  });

  it("turns phone-looking terms into digits and keeps other terms", () => {
    expect(searchTerms("(555) 010")).toEqual(["555", "010"]);
    expect(searchTerms("555-010-2030 Ada")).toEqual(["5550102030", "ada"]);
    expect(searchTerms("ada@x.org")).toEqual(["ada@x.org"]);
  });
});
