import { describe, expect, it } from "vitest";
import type { DomainError } from "../kernel/domain-error.js";
import { parseTimeBound, toPatientListCriteria } from "./patient-list-query.js";

const detailsOf = (fn: () => unknown) => {
  try {
    fn();
  } catch (e) {
    expect((e as DomainError).code).toBe("INVALID_PARAMETER");
    return (e as DomainError).details;
  }
  throw new Error("expected INVALID_PARAMETER");
};

describe("patient list query", () => {
  it("applies the spec's defaults", () => {
    expect(toPatientListCriteria(3, {})).toEqual({
      organisationId: 3,
      searchTerms: [],
      createdFrom: undefined,
      createdBefore: undefined,
      updatedFrom: undefined,
      updatedBefore: undefined,
      status: "active",
      sort: "created_at",
      order: "desc",
      limit: 25,
      offset: 0,
    });
  });

  it("turns page and per_page into limit and offset", () => {
    expect(toPatientListCriteria(1, { page: 3, perPage: 10 })).toMatchObject({ limit: 10, offset: 20 });
  });

  it.each([
    [{ perPage: 0 }, "per_page", "must be between 1 and 100"],
    [{ perPage: 101 }, "per_page", "must be between 1 and 100"],
    [{ page: 0 }, "page", "must be an integer of at least 1"],
    [{ sort: "age" as never }, "sort", "must be one of created_at, updated_at, last_name, first_name"],
    [{ order: "up" as never }, "order", "must be asc or desc"],
    [{ status: "gone" as never }, "status", "must be active, inactive or all"],
    [{ search: "x".repeat(101) }, "search", "must be at most 100 characters"],
  ])("refuses %o naming %s", (query, parameter, reason) => {
    expect(detailsOf(() => toPatientListCriteria(1, query))).toMatchObject({ parameter, reason });
  });

  it("parses dates as midnight UTC and date-times with zones", () => {
    expect(parseTimeBound("created_after", "2026-01-31").toISOString()).toBe("2026-01-31T00:00:00.000Z");
    expect(parseTimeBound("created_after", "2026-01-31T10:00:00+02:00").toISOString()).toBe("2026-01-31T08:00:00.000Z");
  });

  it.each(["2026-02-30", "2026-01-31T10:00:00", "yesterday", "2026-1-3"])("refuses the time bound %s", (value) => {
    expect(detailsOf(() => toPatientListCriteria(1, { createdAfter: value }))).toMatchObject({
      parameter: "created_after",
      value,
    });
  });

  it("refuses an after bound later than its before bound", () => {
    expect(
      detailsOf(() => toPatientListCriteria(1, { updatedAfter: "2026-02-01", updatedBefore: "2026-01-01" })),
    ).toMatchObject({ parameter: "updated_after", reason: "must not be later than updated_before" });
  });

  it("splits search into folded terms", () => {
    expect(toPatientListCriteria(1, { search: "  Édith  PIAF " }).searchTerms).toEqual(["edith", "piaf"]);
  });
});
