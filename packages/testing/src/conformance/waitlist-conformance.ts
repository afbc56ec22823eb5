import type { Storage, WaitlistOffer, WaitlistRequest } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-09-01T09:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

/** The waitlist part of the storage contract: round trips, order, versions, one offer per slot and request, holds. */
export function describeWaitlistConformance(engine: string, current: () => { s: Storage; fx: StorageFixture }): void {
  describe("waitlist", () => {
    let s: Storage;
    const request = (over: Partial<WaitlistRequest> = {}): Omit<WaitlistRequest, "id"> => ({
      organisationId: 1,
      patientId: 11,
      serviceCaseId: null,
      providerIds: [3, 4],
      clinicIds: [],
      appointmentTypeId: 5,
      preferredDays: ["MO", "WE"],
      timeWindows: [{ start: "08:00", end: "12:00" }],
      earliestDate: "2026-09-01",
      latestDate: null,
      priority: "normal",
      paymentMode: "SELF_PAY",
      notes: "mornings",
      status: "waiting",
      appointmentId: null,
      createdAt: T0,
      updatedAt: T0,
      version: 1,
      ...over,
    });
    const offer = (requestId: number, over: Partial<WaitlistOffer> = {}): Omit<WaitlistOffer, "id"> => ({
      organisationId: 1,
      requestId,
      providerId: 3,
      clinicId: 9,
      startsAt: at(60),
      endsAt: at(90),
      status: "pending",
      expiresAt: at(30),
      createdAt: T0,
      decidedAt: null,
      appointmentId: null,
      ...over,
    });

    beforeEach(async () => {
      s = current().s;
      for (const id of [1, 2])
        await s.repositories.organisations.ensure({ id, name: `Org ${id}`, plan: "free", now: T0 });
    });

    it(`[${engine}] round-trips a request, orders the list by priority then age, scopes by organisation`, async () => {
      const w = s.repositories.waitlist;
      const normal = await w.insertRequest(request());
      const low = await w.insertRequest(request({ priority: "low", createdAt: at(-10) }));
      const high = await w.insertRequest(request({ priority: "high", createdAt: at(5), patientId: 12 }));
      const older = await w.insertRequest(request({ createdAt: at(-5), status: "offered" }));
      expect(await w.findRequest(1, normal.id)).toEqual(normal);
      expect(await w.findRequest(2, normal.id)).toBeUndefined();
      const page = await w.listRequests(1, { limit: 10, offset: 0 });
      expect(page.requests.map((r) => r.id)).toEqual([high.id, older.id, normal.id, low.id]);
      expect(page.total).toBe(4);
      expect((await w.listRequests(1, { statuses: ["offered"], limit: 10, offset: 0 })).requests).toEqual([older]);
      expect((await w.listRequests(1, { patientId: 12, limit: 10, offset: 0 })).requests).toEqual([high]);
      expect((await w.listRequests(1, { limit: 2, offset: 2 })).requests.map((r) => r.id)).toEqual([normal.id, low.id]);
      expect((await w.listWaiting(1)).map((r) => r.id).sort((a, b) => a - b)).toEqual([normal.id, low.id, high.id]);
      expect(await w.listWaiting(2)).toEqual([]);
    });

    it(`[${engine}] a clinic restriction lists the requests naming one of its clinics or none, counted in the query`, async () => {
      const w = s.repositories.waitlist;
      const named = async (clinicIds: number[], minutes: number) =>
        (await w.insertRequest(request({ clinicIds, createdAt: at(minutes) }))).id;
      const any = await named([], 0);
      const alone = await named([5], 1);
      const first = await named([5, 15], 2);
      const between = await named([1, 5, 25], 3);
      const last = await named([15, 5], 4);
      // Ids that contain 5 in their digits are other clinics: the match is on whole ids.
      await named([15], 5);
      const wide = await named([51, 25], 6);
      await named([50], 7);
      const page = (inClinics: number[], limit = 10, offset = 0) => w.listRequests(1, { inClinics, limit, offset });
      expect((await page([5])).requests.map((r) => r.id)).toEqual([any, alone, first, between, last]);
      expect((await page([5])).total).toBe(5);
      const second = await page([5], 2, 2);
      expect([second.requests.map((r) => r.id), second.total]).toEqual([[first, between], 5]);
      expect((await page([99])).requests.map((r) => r.id)).toEqual([any]);
      expect((await page([25, 51])).requests.map((r) => r.id)).toEqual([any, between, wide]);
      expect((await w.listRequests(1, { limit: 20, offset: 0 })).total).toBe(8);
    });

    it(`[${engine}] updates a request only at its version`, async () => {
      const w = s.repositories.waitlist;
      const r = await w.insertRequest(request());
      const changed = { ...r, status: "offered" as const, providerIds: [], notes: null, updatedAt: at(1) };
      expect(await w.updateRequest(changed)).toBe(true);
      expect(await w.findRequest(1, r.id)).toEqual({ ...changed, version: 2 });
      expect(await w.updateRequest({ ...changed, status: "cancelled" })).toBe(false);
      expect((await w.findRequest(1, r.id))?.status).toBe("offered");
      expect(await w.updateRequest({ ...changed, organisationId: 2, version: 2 })).toBe(false);
    });

    it(`[${engine}] offers a slot to a request once; pending unexpired offers hold their time`, async () => {
      const w = s.repositories.waitlist;
      const r1 = await w.insertRequest(request());
      const r2 = await w.insertRequest(request());
      const first = await w.insertOffer(offer(r1.id));
      expect(first).toBeDefined();
      expect(await w.findOffer(1, first!.id)).toEqual(first);
      expect(await w.findOffer(2, first!.id)).toBeUndefined();
      expect(await w.insertOffer(offer(r1.id, { status: "expired" }))).toBeUndefined();
      const second = await w.insertOffer(offer(r2.id));
      expect(second).toBeDefined();
      expect((await w.requestsOfferedSlot(1, 3, at(60))).sort((a, b) => a - b)).toEqual([r1.id, r2.id]);
      expect(await w.requestsOfferedSlot(1, 3, at(61))).toEqual([]);
      const later = await w.insertOffer(offer(r1.id, { startsAt: at(120), endsAt: at(150), expiresAt: at(200) }));
      expect((await w.listOffers(1, [r1.id])).map((o) => o.id)).toEqual([later!.id, first!.id]);
      expect((await w.listOffers(1, [r1.id, r2.id])).map((o) => o.id)).toEqual([later!.id, second!.id, first!.id]);
      expect(await w.listOffers(2, [r1.id])).toEqual([]);
      expect(await w.listOffers(1, [])).toEqual([]);

      const holds = (now: Date, from = at(0), to = at(1000)) =>
        w.listHolds(1, [3], from, to, now).then((h) => h.map((o) => o.id).sort((a, b) => a - b));
      expect(await holds(at(0))).toEqual([first!.id, second!.id, later!.id].sort((a, b) => a - b));
      expect(await holds(at(31))).toEqual([later!.id]);
      expect(await holds(at(0), at(90), at(120))).toEqual([]);
      expect(await w.listHolds(1, [4], at(0), at(1000), at(0))).toEqual([]);
      expect(await w.listHolds(1, [], at(0), at(1000), at(0))).toEqual([]);
      await w.updateOffer({ ...later!, status: "accepted", decidedAt: at(10), appointmentId: 77 });
      expect(await w.findOffer(1, later!.id)).toEqual({
        ...later,
        status: "accepted",
        decidedAt: at(10),
        appointmentId: 77,
      });
      expect(await holds(at(0))).toEqual([first!.id, second!.id].sort((a, b) => a - b));
    });
  });
}
