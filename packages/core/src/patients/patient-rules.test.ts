import { describe, expect, it } from "vitest";
import { isCalendarDate } from "../kernel/calendar-date.js";
import { DomainError } from "../kernel/domain-error.js";
import {
  applyPatientChanges,
  assertValidPatientChanges,
  assertValidPatientDraft,
  patientFromDraft,
} from "./patient-rules.js";

const TODAY = "2026-11-22";
const issuesOf = (fn: () => void) => {
  try {
    fn();
  } catch (e) {
    expect(e).toBeInstanceOf(DomainError);
    expect((e as DomainError).code).toBe("VALIDATION_FAILED");
    return (e as DomainError).details.issues?.map((i) => i.field) ?? [];
  }
  throw new Error("expected a validation error");
};

describe("patient rules", () => {
  it("accepts a minimal draft", () => {
    expect(() =>
      assertValidPatientDraft({ firstName: "Ada", lastName: "Byron", dateOfBirth: "1980-01-31" }, TODAY),
    ).not.toThrow();
  });

  it("reports every bad field at once", () => {
    const fields = issuesOf(() =>
      assertValidPatientDraft(
        {
          firstName: " ",
          lastName: "",
          dateOfBirth: "2027-01-01",
          email: "nope",
          phone: "12",
          sex: "X" as never,
          address: { state: "Ill", country: "USA", postalCode: "!" },
        },
        TODAY,
      ),
    );
    expect(fields).toEqual([
      "firstName",
      "lastName",
      "dateOfBirth",
      "sex",
      "email",
      "phone",
      "address.state",
      "address.postalCode",
      "address.country",
    ]);
  });

  it("knows calendar dates", () => {
    expect(isCalendarDate("2024-02-29")).toBe(true);
    expect(isCalendarDate("2023-02-29")).toBe(false);
    expect(isCalendarDate("2023-13-01")).toBe(false);
    expect(isCalendarDate("23-01-01")).toBe(false);
  });

  it("refuses births before 1900 and in the future, accepts today", () => {
    expect(
      issuesOf(() => assertValidPatientDraft({ firstName: "A", lastName: "B", dateOfBirth: "1899-12-31" }, TODAY)),
    ).toEqual(["dateOfBirth"]);
    expect(
      issuesOf(() => assertValidPatientDraft({ firstName: "A", lastName: "B", dateOfBirth: "2026-11-23" }, TODAY)),
    ).toEqual(["dateOfBirth"]);
    expect(() => assertValidPatientDraft({ firstName: "A", lastName: "B", dateOfBirth: TODAY }, TODAY)).not.toThrow();
  });

  it("checks phone digit counts", () => {
    expect(issuesOf(() => assertValidPatientChanges({ phone: "+1 (555) 01" }, TODAY))).toEqual(["phone"]);
    expect(() => assertValidPatientChanges({ phone: "+1 (555) 010-2030" }, TODAY)).not.toThrow();
  });

  it("lets an update omit required fields but not blank them", () => {
    expect(() => assertValidPatientChanges({ middleName: "Q" }, TODAY)).not.toThrow();
    expect(issuesOf(() => assertValidPatientChanges({ lastName: "  " }, TODAY))).toEqual(["lastName"]);
  });

  it("stores trimmed values, lower-case email, defaults and nulls", () => {
    const now = new Date("2026-01-01T00:00:00Z");
    const p = patientFromDraft(
      {
        firstName: " Ada ",
        lastName: "Byron",
        dateOfBirth: "1980-01-31",
        email: " Ada@Example.ORG ",
        middleName: "  ",
      },
      7,
      now,
    );
    expect(p).toMatchObject({
      organisationId: 7,
      firstName: "Ada",
      email: "ada@example.org",
      middleName: null,
      sex: "UNDEFINED",
      status: "active",
      clinicId: null,
    });
    expect(p.address).toEqual({ line1: null, line2: null, city: null, state: null, postalCode: null, country: "US" });
  });

  it("merges changes field by field, null clears, and keeps createdAt", () => {
    const created = new Date("2026-01-01T00:00:00Z");
    const current = {
      ...patientFromDraft(
        {
          firstName: "Ada",
          lastName: "Byron",
          dateOfBirth: "1980-01-31",
          phone: "555-0100",
          address: { city: "Peoria", state: "IL" },
        },
        1,
        created,
      ),
      id: 9,
    };
    const later = new Date("2026-02-01T00:00:00Z");
    const next = applyPatientChanges(current, { phone: null, address: { city: "Springfield" } }, later);
    expect(next).toMatchObject({ id: 9, phone: null, createdAt: created, updatedAt: later, firstName: "Ada" });
    expect(next.address).toMatchObject({ city: "Springfield", state: "IL" });
  });
});
