import type { StaffListFilter, StaffMember, Storage } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-09-01T09:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

/** The staff part of the storage contract: email unique per organisation (case-insensitive) under concurrency, clinic memberships, scoping, list filters and order. */
export function describeStaffConformance(engine: string, current: () => { s: Storage; fx: StorageFixture }): void {
  describe("staff", () => {
    let s: Storage;
    let clinics: number[];
    const member = (over: Partial<StaffMember> = {}): Omit<StaffMember, "id"> => ({
      organisationId: 1,
      firstName: "Rosa",
      lastName: "Delgado",
      email: "rosa@clinic.test",
      phone: null,
      roles: ["front_desk"],
      clinicIds: [],
      status: "active",
      createdAt: T0,
      updatedAt: T0,
      deactivatedAt: null,
      ...over,
    });
    const filter = (over: Partial<StaffListFilter> = {}): StaffListFilter => ({
      terms: [],
      sort: "last_name",
      order: "asc",
      limit: 50,
      offset: 0,
      ...over,
    });
    const insert = async (over: Partial<StaffMember> = {}) => {
      const result = await s.repositories.staff.insert(member(over));
      if (!result.created) throw new Error(`not created: ${result.existingId}`);
      return result.member;
    };

    beforeEach(async () => {
      s = current().s;
      for (const id of [1, 2])
        await s.repositories.organisations.ensure({ id, name: `Org ${id}`, plan: "free", now: T0 });
      clinics = [];
      for (const [org, name] of [
        [1, "Main"],
        [1, "North"],
        [2, "Elsewhere"],
      ] as const)
        clinics.push(
          (await s.repositories.organisations.ensureClinic({ organisationId: org, name, timeZone: "UTC" })).id,
        );
    });

    it(`[${engine}] round-trips a member with roles, clinics and times; another organisation sees nothing`, async () => {
      const m = await insert({ roles: ["biller", "admin"], clinicIds: [clinics[0]!, clinics[1]!], phone: "555-0100" });
      expect(await s.repositories.staff.findById(1, m.id)).toEqual({ ...member(), ...m });
      expect(await s.repositories.staff.findById(2, m.id)).toBeUndefined();
    });

    it(`[${engine}] of 10 concurrent inserts of one email (in any case) exactly one is created; the others name it and their transactions stay usable`, async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          s.transaction(async (tx) => {
            const r = await tx.staff.insert(member({ email: i % 2 ? "ROSA@clinic.test" : "rosa@Clinic.test" }));
            await tx.outbox.append({
              eventType: "staff.created",
              organisationId: 1,
              data: { organisation_id: 1, staff_id: 0 },
              occurredAt: at(i),
            });
            return r;
          }),
        ),
      );
      const created = results.filter((r) => r.created);
      expect(created).toHaveLength(1);
      const winner = created[0]!.created ? created[0]!.member.id : 0;
      for (const r of results) if (!r.created) expect(r.existingId).toBe(winner);
      expect((await s.repositories.staff.list(1, filter())).total).toBe(1);
      expect(await s.repositories.staff.insert(member({ organisationId: 2 }))).toMatchObject({ created: true });
    });

    it(`[${engine}] update replaces fields and clinics; an email held by another member is refused, nothing written`, async () => {
      const a = await insert({ clinicIds: [clinics[0]!] });
      const b = await insert({ email: "ben@clinic.test", firstName: "Ben" });
      const changed = {
        ...a,
        lastName: "Ortiz",
        clinicIds: [clinics[1]!],
        status: "inactive" as const,
        deactivatedAt: at(5),
        updatedAt: at(5),
      };
      expect(await s.repositories.staff.update(changed)).toEqual({ updated: true });
      expect(await s.repositories.staff.findById(1, a.id)).toEqual(changed);
      expect(await s.repositories.staff.update({ ...b, email: "ROSA@CLINIC.TEST" })).toEqual({
        updated: false,
        existingId: a.id,
      });
      expect((await s.repositories.staff.findById(1, b.id))?.email).toBe("ben@clinic.test");
    });

    it(`[${engine}] lists by folded name with filters for status, role, clinic and search terms, paged with a whole total`, async () => {
      await insert({
        firstName: "Zoë",
        lastName: "Álvarez",
        email: "zoe@c.test",
        roles: ["biller"],
        clinicIds: [clinics[0]!],
      });
      await insert({
        firstName: "ann",
        lastName: "brooks",
        email: "ann@c.test",
        roles: ["admin", "biller"],
        createdAt: at(1),
      });
      await insert({ firstName: "Ben", lastName: "Carter", email: "ben@c.test", status: "inactive", createdAt: at(2) });
      const names = async (over: Partial<StaffListFilter>) =>
        (await s.repositories.staff.list(1, filter(over))).members.map((m) => m.firstName);
      expect(await names({})).toEqual(["Zoë", "ann", "Ben"]);
      expect(await names({ status: "active" })).toEqual(["Zoë", "ann"]);
      expect(await names({ role: "biller" })).toEqual(["Zoë", "ann"]);
      expect(await names({ role: "admin" })).toEqual(["ann"]);
      expect(await names({ clinicId: clinics[0]! })).toEqual(["Zoë"]);
      expect(await names({ terms: ["zoe", "alv"] })).toEqual(["Zoë"]);
      expect(await names({ terms: ["c.test"], sort: "created_at", order: "desc" })).toEqual(["Ben", "ann", "Zoë"]);
      expect(await names({ sort: "first_name" })).toEqual(["ann", "Ben", "Zoë"]);
      expect(await s.repositories.staff.list(1, filter({ limit: 1, offset: 1 }))).toMatchObject({ total: 3 });
      expect((await s.repositories.staff.list(2, filter())).total).toBe(0);
    });
  });
}
