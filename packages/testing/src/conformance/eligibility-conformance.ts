import type { EligibilityCheckRecord, Storage } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-11-20T15:00:00.000Z");

/** Eligibility checks: every field round-trips, a coverage's history pages newest first, the newest answer wins. */
export function describeEligibilityConformance(
  engine: string,
  current: () => { s: Storage; fx: StorageFixture },
): void {
  describe("eligibility checks", () => {
    let s: Storage;
    const check = (over: Partial<EligibilityCheckRecord> = {}): EligibilityCheckRecord => ({
      organisationId: 1,
      patientId: 5,
      coverageId: 10,
      source: "realtime",
      status: "active",
      serviceDate: "2026-11-20",
      result: { active: true, planStartDate: "2026-01-01", planEndDate: null, benefits: {} },
      rejections: [],
      errorCode: null,
      errorMessage: null,
      request: "ISA*00~",
      response: "ISA*00~EB*1~",
      reference: null,
      notes: null,
      checkedBy: 101,
      checkedAt: T0,
      ...over,
    });

    beforeEach(async () => {
      s = current().s;
      for (const id of [1, 2])
        await s.repositories.organisations.ensure({ id, name: `Org ${id}`, plan: "free", now: T0 });
    });

    it(`[${engine}] round-trips a check and lists a coverage's checks newest first, paged, within the organisation`, async () => {
      const repo = s.repositories.eligibilityChecks;
      const rejected = check({
        status: "rejected",
        result: null,
        rejections: [{ code: "72", reason: "Invalid/missing subscriber/insured ID", followUp: null }],
      });
      const first = await repo.insert(rejected);
      const second = await repo.insert(check({ source: "manual", request: null, response: null, reference: "CALL-1" }));
      await repo.insert(check({ organisationId: 2 }));
      const page = await repo.listByCoverage(1, 10, { limit: 1, offset: 0 });
      expect(page.total).toBe(2);
      expect(page.checks).toEqual([
        { ...check({ source: "manual", request: null, response: null, reference: "CALL-1" }), id: second },
      ]);
      expect((await repo.listByCoverage(1, 10, { limit: 5, offset: 1 })).checks).toEqual([{ ...rejected, id: first }]);
    });

    it(`[${engine}] latestAnswered gives each coverage's newest active or inactive check, never a rejected or failed one`, async () => {
      const repo = s.repositories.eligibilityChecks;
      await repo.insert(check({ coverageId: 10, status: "active" }));
      const newest10 = await repo.insert(check({ coverageId: 10, status: "inactive" }));
      await repo.insert(check({ coverageId: 10, status: "failed", result: null, errorCode: "ELIGIBILITY_TIMEOUT" }));
      const only11 = await repo.insert(check({ coverageId: 11 }));
      await repo.insert(check({ coverageId: 12, status: "rejected", result: null }));
      await repo.insert(check({ organisationId: 2, coverageId: 10 }));
      const latest = await repo.latestAnswered(1, [10, 11, 12, 13]);
      expect(latest.map((c) => [c.coverageId, c.id]).sort((a, b) => a[0]! - b[0]!)).toEqual([
        [10, newest10],
        [11, only11],
      ]);
      expect(await repo.latestAnswered(1, [])).toEqual([]);
    });
  });
}
