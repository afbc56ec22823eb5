import {
  patientFromDraft,
  toPatientRecord,
  type PatientDraft,
  type PatientListCriteria,
  type Storage,
} from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { CurrentStore, StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-03-01T10:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

function record(orgId: number, draft: Partial<PatientDraft> & { firstName: string; lastName: string }, createdAt = T0) {
  const full: PatientDraft = { dateOfBirth: "1980-05-17", ...draft };
  const p = patientFromDraft(full, orgId, createdAt);
  return toPatientRecord(p);
}

function criteria(orgId: number, over: Partial<PatientListCriteria> = {}): PatientListCriteria {
  return {
    organisationId: orgId,
    searchTerms: [],
    status: "all",
    sort: "created_at",
    order: "asc",
    limit: 100,
    offset: 0,
    ...over,
  };
}

/**
 * The platform's part of the storage contract: organisations and their directory, the catalog, patients,
 * transactions with the outbox, rate-limit counters, the job queue, store locks and a closed store. Runs inside
 * runStorageConformance, on organisations 1 and 2 that its beforeEach ensures.
 */
export function describeFoundationConformance(engine: string, current: CurrentStore): void {
  let s: Storage;
  let fx: StorageFixture;
  beforeEach(() => {
    ({ s, fx } = current());
  });

  describe("organisations", () => {
    it(`[${engine}] ensure is insert-if-absent and keeps the existing row`, async () => {
      await s.repositories.organisations.ensure({ id: 1, name: "Renamed", plan: "enterprise", now: at(5) });
      expect(await s.repositories.organisations.findById(1)).toMatchObject({
        id: 1,
        name: "Org one",
        plan: "free",
        isActive: true,
      });
      expect(await fx.probe.hasOrganisation(1)).toBe(true);
    });

    it(`[${engine}] concurrent ensure of one new id creates exactly one row`, async () => {
      await Promise.all(
        Array.from({ length: 20 }, () =>
          s.repositories.organisations.ensure({ id: 77, name: "Race", plan: "free", now: T0 }),
        ),
      );
      expect(await fx.probe.hasOrganisation(77)).toBe(true);
    });

    it(`[${engine}] clinics are unique by name per organisation and invisible to other organisations`, async () => {
      const a = await s.repositories.organisations.ensureClinic({
        organisationId: 1,
        name: "Downtown",
        timeZone: "America/Chicago",
      });
      const b = await s.repositories.organisations.ensureClinic({
        organisationId: 1,
        name: "Downtown",
        timeZone: "America/Chicago",
      });
      expect(b.id).toBe(a.id);
      expect(await s.repositories.organisations.findClinic(1, a.id)).toMatchObject({ name: "Downtown" });
      expect(await s.repositories.organisations.findClinic(2, a.id)).toBeUndefined();
    });

    it(`[${engine}] a clinic's details round-trip; insertClinic and updateClinic refuse another clinic's name, 10 concurrent inserts create one`, async () => {
      const details = {
        organisationId: 1,
        name: "Lakeside",
        timeZone: "America/Chicago",
        allowDoubleBooking: true,
        visitLimitWarningOnly: false,
        address: {
          line1: "1 Lake St",
          line2: null,
          city: "Chicago",
          state: "IL",
          postalCode: "60601",
          country: "US",
        },
        phone: "312-555-0100",
        placeOfService: "22",
        npi: "1234567893",
        taxId: "123456789",
        active: true,
        createdAt: at(1),
        updatedAt: at(2),
      };
      const results = await Promise.all(
        Array.from({ length: 10 }, () => s.transaction((tx) => tx.organisations.insertClinic(details))),
      );
      const created = results.filter((r) => r.created);
      expect(created).toHaveLength(1);
      const clinic = created[0]!.created ? created[0]!.clinic : undefined;
      for (const r of results) if (!r.created) expect(r.existingId).toBe(clinic?.id);
      expect(await s.repositories.organisations.findClinic(1, clinic!.id)).toEqual(clinic);
      const other = await s.repositories.organisations.ensureClinic({
        organisationId: 1,
        name: "Hillside",
        timeZone: "UTC",
      });
      expect(other).toMatchObject({ active: true, placeOfService: "11", npi: null, address: { city: null } });
      expect(await s.repositories.organisations.updateClinic({ ...other, name: "Lakeside" })).toEqual({
        updated: false,
        existingId: clinic!.id,
      });
      const moved = {
        ...other,
        name: "Riverside",
        active: false,
        address: { ...other.address, city: "Joliet" },
        updatedAt: at(3),
      };
      expect(await s.repositories.organisations.updateClinic(moved)).toEqual({ updated: true });
      expect(await s.repositories.organisations.findClinic(1, other.id)).toEqual(moved);
      expect(await s.repositories.organisations.insertClinic({ ...details, organisationId: 2 })).toMatchObject({
        created: true,
      });
    });

    it(`[${engine}] insertProvider refuses another provider's user id or NPI (10 concurrent inserts of one NPI create one); updateProvider refuses another's NPI`, async () => {
      const clinic = await s.repositories.organisations.ensureClinic({
        organisationId: 1,
        name: "P",
        timeZone: "UTC",
      });
      const provider = (userId: number, npi: string | null) => ({
        organisationId: 1,
        userId,
        firstName: "Pat",
        lastName: "Lee",
        npi,
        supervisingUserId: null,
        clinicIds: [clinic.id],
        credentials: ["DPT"],
        licenceNumber: "PT-1",
        licenceState: "IL",
        specialities: ["vestibular"],
        requiresCosign: false,
        active: true,
        createdAt: at(1),
        updatedAt: at(1),
      });
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          s.transaction((tx) => tx.organisations.insertProvider(provider(900 + i, "1234567893"))),
        ),
      );
      const created = results.filter((r) => r.created);
      expect(created).toHaveLength(1);
      const winner = created[0]!.created ? created[0]!.provider : undefined;
      for (const r of results)
        if (!r.created) expect(r).toEqual({ created: false, field: "npi", existingId: winner!.id });
      expect(await s.repositories.organisations.findProviderById(1, winner!.id)).toEqual(winner);
      expect(await s.repositories.organisations.insertProvider(provider(winner!.userId, null))).toEqual({
        created: false,
        field: "userId",
        existingId: winner!.id,
      });
      const other = await s.repositories.organisations.insertProvider(provider(990, null));
      const second = other.created ? other.provider : undefined;
      expect(await s.repositories.organisations.updateProvider({ ...second!, npi: "1234567893" })).toEqual({
        updated: false,
        field: "npi",
        existingId: winner!.id,
      });
      const changed = { ...second!, active: false, credentials: ["PTA"], clinicIds: [], updatedAt: at(2) };
      expect(await s.repositories.organisations.updateProvider(changed)).toEqual({ updated: true });
      expect(await s.repositories.organisations.findProviderById(1, second!.id)).toEqual(changed);
      expect(await s.repositories.organisations.findProviderById(2, second!.id)).toBeUndefined();
    });

    it(`[${engine}] upsertProvider replaces clinic memberships`, async () => {
      const c1 = await s.repositories.organisations.ensureClinic({ organisationId: 1, name: "A", timeZone: "UTC" });
      const c2 = await s.repositories.organisations.ensureClinic({ organisationId: 1, name: "B", timeZone: "UTC" });
      const base = {
        organisationId: 1,
        userId: 500,
        firstName: "Ann",
        lastName: "Lee",
        npi: "1234567893",
        supervisingUserId: 501,
      };
      await s.repositories.organisations.upsertProvider({ ...base, clinicIds: [c1.id, c2.id] });
      await s.repositories.organisations.upsertProvider({ ...base, lastName: "Lee-Park", clinicIds: [c2.id] });
      const providers = await s.repositories.organisations.listProviders(1);
      expect(providers).toHaveLength(1);
      expect(providers[0]).toMatchObject({
        userId: 500,
        lastName: "Lee-Park",
        clinicIds: [c2.id],
        supervisingUserId: 501,
      });
      expect(await s.repositories.organisations.listProviders(2)).toEqual([]);
    });
  });

  describe("catalog", () => {
    it(`[${engine}] categories, cancellation reasons and specializations are idempotent per organisation`, async () => {
      for (let i = 0; i < 2; i++) {
        await s.repositories.catalog.ensureAppointmentCategory({
          organisationId: 1,
          name: "Initial",
          type: "IN_PERSON",
          durationMinutes: 60,
        });
        await s.repositories.catalog.ensureCancellationReason({
          organisationId: 1,
          reasonKey: "LATE",
          reasonLabel: "Late",
          cancellationFee: 25.5,
          status: "ACTIVE",
        });
        await s.repositories.catalog.enableSpecialization(1, "MSK");
      }
      expect(await s.repositories.catalog.listAppointmentCategories(1)).toHaveLength(1);
      expect(await s.repositories.catalog.listCancellationReasons(1)).toEqual([
        expect.objectContaining({ reasonKey: "LATE", cancellationFee: 25.5 }),
      ]);
      expect(await s.repositories.catalog.listSpecializations(1)).toEqual(["MSK"]);
      expect(await s.repositories.catalog.listSpecializations(2)).toEqual([]);
    });
  });

  describe("patients", () => {
    it(`[${engine}] insertIfAbsent creates once, then returns the existing patient`, async () => {
      const first = await s.repositories.patients.insertIfAbsent(record(1, { firstName: "Ada", lastName: "Byron" }));
      const second = await s.repositories.patients.insertIfAbsent(
        record(1, { firstName: " ADA ", lastName: "byron", phone: "555-0100" }),
      );
      expect(first.created).toBe(true);
      expect(second).toMatchObject({ created: false, patient: { id: first.patient.id, phone: null } });
      expect(await fx.probe.patients(1)).toHaveLength(1);
    });

    it(`[${engine}] the same person in another organisation is a different patient`, async () => {
      const a = await s.repositories.patients.insertIfAbsent(record(1, { firstName: "Ada", lastName: "Byron" }));
      const b = await s.repositories.patients.insertIfAbsent(record(2, { firstName: "Ada", lastName: "Byron" }));
      expect(b.created).toBe(true);
      expect(b.patient.id).not.toBe(a.patient.id);
    });

    it(`[${engine}] 20 concurrent registrations of one person create exactly one row`, async () => {
      const results = await Promise.all(
        Array.from({ length: 20 }, () =>
          s.repositories.patients.insertIfAbsent(record(1, { firstName: "Grace", lastName: "Hopper" })),
        ),
      );
      expect(results.filter((r) => r.created)).toHaveLength(1);
      expect(new Set(results.map((r) => r.patient.id)).size).toBe(1);
      expect(await fx.probe.patients(1)).toHaveLength(1);
    });

    it(`[${engine}] round-trips every field and stores timestamps as UTC ISO text`, async () => {
      const rec = record(
        1,
        {
          firstName: "Zoë",
          middleName: "Q",
          lastName: "O'Neil",
          sex: "FEMALE",
          phone: "+1 (555) 010-2030",
          email: "Zoe@Example.org",
          address: {
            line1: "1 Main St",
            line2: "Apt 2",
            city: "Peoria",
            state: "IL",
            postalCode: "61602-1234",
            country: "US",
          },
          emergencyContact: { name: "Sam", relationship: "spouse", phone: "555-0101" },
          insurance: { provider: "Acme Health", policyNumber: "P-1", groupNumber: "G-9" },
        },
        new Date("2026-03-01T23:30:00.123Z"),
      );
      const { patient } = await s.repositories.patients.insertIfAbsent(rec);
      const read = await s.repositories.patients.findById(1, patient.id);
      const { identityKey: _i, searchText: _s, firstNameSort: _f, lastNameSort: _l, ...expected } = rec;
      expect(read).toEqual({ ...expected, id: patient.id });
      const row = (await fx.probe.patients()).find((p) => p.id === patient.id);
      expect(row?.storedCreatedAt).toBe("2026-03-01T23:30:00.123Z");
      expect(row?.identityKey).toBe("zoe|o'neil|1980-05-17");
    });

    it(`[${engine}] findById is scoped to the organisation`, async () => {
      const { patient } = await s.repositories.patients.insertIfAbsent(
        record(1, { firstName: "Ada", lastName: "Byron" }),
      );
      expect(await s.repositories.patients.findById(2, patient.id)).toBeUndefined();
      expect(await s.repositories.patients.findById(1, 999_999)).toBeUndefined();
    });

    it(`[${engine}] replace updates, reports an identity conflict without writing, and reports a missing row`, async () => {
      const a = (await s.repositories.patients.insertIfAbsent(record(1, { firstName: "Ada", lastName: "Byron" })))
        .patient;
      const b = (await s.repositories.patients.insertIfAbsent(record(1, { firstName: "Alan", lastName: "Turing" })))
        .patient;
      const updated = await s.repositories.patients.replace(
        b.id,
        toPatientRecord({ ...b, phone: "555-0199", updatedAt: at(3) }),
      );
      expect(updated).toMatchObject({ outcome: "updated", patient: { phone: "555-0199", updatedAt: at(3) } });
      const clash = await s.repositories.patients.replace(
        b.id,
        toPatientRecord({ ...b, firstName: "Ada", lastName: "Byron" }),
      );
      expect(clash).toEqual({ outcome: "conflict", existingId: a.id });
      const row = (await fx.probe.patients()).find((p) => p.id === b.id);
      expect(row?.firstName).toBe("Alan");
      expect(await s.repositories.patients.replace(424242, toPatientRecord({ ...b, firstName: "Nobody" }))).toEqual({
        outcome: "missing",
      });
    });

    describe("list", () => {
      beforeEach(async () => {
        const people: Array<[string, string, string | null, string | null, number, "active" | "inactive"]> = [
          ["Ada", "Byron", "ada@example.org", "555-010-0001", 0, "active"],
          ["Alan", "Turing", "alan@example.org", "555-010-0002", 1, "active"],
          ["Grace", "Hopper", null, "(555) 010-0003", 2, "inactive"],
          ["Édith", "Piaf", "edith@chanson.fr", null, 3, "active"],
          ["Percent", "Sign", "100%_real@example.org", null, 4, "active"],
          ["Adam", "Byrd", "adam@example.org", null, 5, "active"],
        ];
        for (const [firstName, lastName, email, phone, minute, status] of people) {
          await s.repositories.patients.insertIfAbsent(
            record(1, { firstName, lastName, email, phone, status }, at(minute)),
          );
        }
        await s.repositories.patients.insertIfAbsent(record(2, { firstName: "Ada", lastName: "Other-org" }, at(0)));
      });
      const names = (r: { patients: { firstName: string }[] }) => r.patients.map((p) => p.firstName);

      it(`[${engine}] filters by organisation and status, and counts the total`, async () => {
        const all = await s.repositories.patients.list(criteria(1));
        expect(all.total).toBe(6);
        const active = await s.repositories.patients.list(criteria(1, { status: "active" }));
        expect(active.total).toBe(5);
        expect(names(active)).not.toContain("Grace");
        expect(names(await s.repositories.patients.list(criteria(1, { status: "inactive" })))).toEqual(["Grace"]);
      });

      it(`[${engine}] search requires every term as a substring, folded, and phone digits`, async () => {
        expect(names(await s.repositories.patients.list(criteria(1, { searchTerms: ["by"] })))).toEqual([
          "Ada",
          "Adam",
        ]);
        expect(names(await s.repositories.patients.list(criteria(1, { searchTerms: ["ada", "byron"] })))).toEqual([
          "Ada",
        ]);
        expect(names(await s.repositories.patients.list(criteria(1, { searchTerms: ["edith"] })))).toEqual(["Édith"]);
        expect(names(await s.repositories.patients.list(criteria(1, { searchTerms: ["5550100003"] })))).toEqual([
          "Grace",
        ]);
        expect(names(await s.repositories.patients.list(criteria(1, { searchTerms: ["chanson.fr"] })))).toEqual([
          "Édith",
        ]);
      });

      it(`[${engine}] search follows renames (any search index stays current)`, async () => {
        const [alan] = (await s.repositories.patients.list(criteria(1, { searchTerms: ["turing"] }))).patients;
        await s.repositories.patients.replace(alan!.id, toPatientRecord({ ...alan!, lastName: "Lovelace-Turner" }));
        expect(names(await s.repositories.patients.list(criteria(1, { searchTerms: ["turing"] })))).toEqual([]);
        expect(names(await s.repositories.patients.list(criteria(1, { searchTerms: ["lovelace", "turner"] })))).toEqual(
          ["Alan"],
        );
      });

      it(`[${engine}] search combines with status, time bounds, sort and paging`, async () => {
        const r = await s.repositories.patients.list(
          criteria(1, {
            searchTerms: ["example.org"],
            status: "active",
            createdFrom: at(1),
            sort: "first_name",
            order: "desc",
            limit: 1,
            offset: 1,
          }),
        );
        expect(r.total).toBe(3);
        expect(names(r)).toEqual(["Alan"]);
      });

      it(`[${engine}] countLimit bounds the count but never the page`, async () => {
        // "example.org" matches Ada, Alan, Percent and Adam (4) in organisation 1.
        const bounded = await s.repositories.patients.list(
          criteria(1, { searchTerms: ["example.org"], countLimit: 2, limit: 10 }),
        );
        expect(bounded.total).toBeGreaterThanOrEqual(3);
        expect(bounded.total).toBeLessThanOrEqual(4);
        expect(bounded.patients).toHaveLength(4);
        const roomy = await s.repositories.patients.list(criteria(1, { searchTerms: ["example.org"], countLimit: 4 }));
        expect(roomy.total).toBe(4);
        const plain = await s.repositories.patients.list(criteria(1, { countLimit: 1 }));
        expect(plain.total).toBeGreaterThanOrEqual(2);
        expect(plain.total).toBeLessThanOrEqual(6);
      });

      it(`[${engine}] LIKE wildcards in a search term are literal`, async () => {
        expect(names(await s.repositories.patients.list(criteria(1, { searchTerms: ["%"] })))).toEqual(["Percent"]);
        expect(names(await s.repositories.patients.list(criteria(1, { searchTerms: ["0%_r"] })))).toEqual(["Percent"]);
        expect(names(await s.repositories.patients.list(criteria(1, { searchTerms: ["_"] })))).toEqual(["Percent"]);
      });

      it(`[${engine}] created bounds are inclusive below and exclusive above`, async () => {
        const r = await s.repositories.patients.list(criteria(1, { createdFrom: at(1), createdBefore: at(3) }));
        expect(names(r)).toEqual(["Alan", "Grace"]);
      });

      it(`[${engine}] sorts by each field in both orders, ties broken by id`, async () => {
        expect(names(await s.repositories.patients.list(criteria(1, { sort: "created_at", order: "desc" })))).toEqual([
          "Adam",
          "Percent",
          "Édith",
          "Grace",
          "Alan",
          "Ada",
        ]);
        expect(
          names(await s.repositories.patients.list(criteria(1, { sort: "last_name", order: "asc" }))).slice(0, 2),
        ).toEqual(["Adam", "Ada"]);
        expect(names(await s.repositories.patients.list(criteria(1, { sort: "first_name", order: "asc" })))).toEqual([
          "Ada",
          "Adam",
          "Alan",
          "Édith",
          "Grace",
          "Percent",
        ]);
        const sameTime = await s.repositories.patients.list(criteria(1, { sort: "updated_at", order: "asc" }));
        expect(sameTime.patients.map((p) => p.updatedAt.getTime())).toEqual(
          [...sameTime.patients.map((p) => p.updatedAt.getTime())].sort((x, y) => x - y),
        );
      });

      it(`[${engine}] pages with limit and offset while the total stays whole`, async () => {
        const page2 = await s.repositories.patients.list(criteria(1, { limit: 4, offset: 4 }));
        expect(page2.total).toBe(6);
        expect(names(page2)).toEqual(["Percent", "Adam"]);
        const beyond = await s.repositories.patients.list(criteria(1, { limit: 4, offset: 40 }));
        expect(beyond).toEqual({ patients: [], total: 6 });
      });
    });
  });

  describe("transactions and the outbox", () => {
    it(`[${engine}] a transaction commits the row and its event together`, async () => {
      await s.transaction(async (tx) => {
        const { patient } = await tx.patients.insertIfAbsent(record(1, { firstName: "Ada", lastName: "Byron" }));
        await tx.outbox.append({
          organisationId: 1,
          eventType: "patient.created",
          data: { organisation_id: 1, patient_id: patient.id },
          occurredAt: T0,
        });
      });
      expect(await fx.probe.patients(1)).toHaveLength(1);
      const events = await fx.probe.outboxEvents(1);
      expect(events).toHaveLength(1);
      expect(events[0]?.data).toEqual({ organisation_id: 1, patient_id: expect.any(Number) });
      expect(events[0]?.dispatched).toBe(false);
    });

    it(`[${engine}] a failing transaction leaves neither the row nor the event`, async () => {
      const boom = new Error("boom");
      await expect(
        s.transaction(async (tx) => {
          await tx.patients.insertIfAbsent(record(1, { firstName: "Ada", lastName: "Byron" }));
          await tx.outbox.append({
            organisationId: 1,
            eventType: "patient.created",
            data: { organisation_id: 1, patient_id: 1 },
            occurredAt: T0,
          });
          throw boom;
        }),
      ).rejects.toBe(boom);
      expect(await fx.probe.patients()).toHaveLength(0);
      expect(await fx.probe.outboxEvents()).toHaveLength(0);
    });

    it(`[${engine}] listPending returns undispatched events oldest first`, async () => {
      for (let i = 1; i <= 3; i++) {
        await s.repositories.outbox.append({
          organisationId: 1,
          eventType: "patient.updated",
          data: { organisation_id: 1, patient_id: i },
          occurredAt: at(i),
        });
      }
      const pending = await s.repositories.outbox.listPending(2);
      expect(pending.map((e) => (e.data as { patient_id?: unknown }).patient_id)).toEqual([1, 2]);
      expect(pending[0]).toMatchObject({
        eventType: "patient.updated",
        organisationId: 1,
        occurredAt: at(1),
        dispatchedAt: null,
      });
    });
  });

  describe("rate-limit counters", () => {
    it(`[${engine}] 50 concurrent hits on one window observe the counts 1..50 exactly once`, async () => {
      const counts = await Promise.all(Array.from({ length: 50 }, () => s.repositories.rateLimits.hit("v2:org:1", T0)));
      expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 50 }, (_, i) => i + 1));
      const row = (await fx.probe.rateLimitCounters()).find((c) => c.key === "v2:org:1");
      expect(row?.hits).toBe(50);
    });

    it(`[${engine}] a hit of n adds n at once: a new counter starts at n, concurrent reservations own distinct counts`, async () => {
      expect(await s.repositories.rateLimits.hit("r", T0, 5)).toBe(5);
      expect(await s.repositories.rateLimits.hit("r", T0)).toBe(6);
      const sizes = [1, 2, 4, 8, 16, 32, 64];
      const ends = await Promise.all(sizes.map((n) => s.repositories.rateLimits.hit("r", T0, n)));
      // Each reservation owns the n counts ending at the one returned: together exactly 7..133, each once.
      const owned = ends.flatMap((end, i) => Array.from({ length: sizes[i] as number }, (_, k) => end - k));
      expect(owned.sort((a, b) => a - b)).toEqual(Array.from({ length: 127 }, (_, i) => i + 7));
      expect(await s.repositories.rateLimits.count("r", T0)).toBe(133);
    });

    it(`[${engine}] release takes back hits of one counter and window, never below zero, never creating one`, async () => {
      const limits = s.repositories.rateLimits;
      expect(await limits.hit("rel", at(0), 5)).toBe(5);
      expect(await limits.hit("rel", at(1), 2)).toBe(2);
      await limits.release("rel", at(0), 3);
      expect(await limits.count("rel", at(0))).toBe(2);
      expect(await limits.count("rel", at(1))).toBe(2);
      await limits.release("rel", at(0), 7);
      expect(await limits.count("rel", at(0))).toBe(0);
      expect(await limits.hit("rel", at(0))).toBe(1);
      await limits.release("absent", at(0), 1);
      expect((await fx.probe.rateLimitCounters()).some((c) => c.key === "absent")).toBe(false);
    });

    it(`[${engine}] reserve then settle: of 50 concurrent reservations against a limit of 10, exactly 10 go on`, async () => {
      const limits = s.repositories.rateLimits;
      // Each caller reserves a hit; over the limit it releases it and is refused; within it, its hit stays (a failure).
      const wentOn = await Promise.all(
        Array.from({ length: 50 }, async () => {
          if ((await limits.hit("reserve", T0)) <= 10) return true;
          await limits.release("reserve", T0, 1);
          return false;
        }),
      );
      expect(wentOn.filter(Boolean)).toHaveLength(10);
      expect(await limits.count("reserve", T0)).toBe(10);
    });

    it(`[${engine}] reserve then settle: callers that release after going on never hold more than the limit at once`, async () => {
      const limits = s.repositories.rateLimits;
      let holding = 0;
      let most = 0;
      let wentOn = 0;
      await Promise.all(
        Array.from({ length: 60 }, async (_, i) => {
          if ((await limits.hit("settle", T0)) > 10) return limits.release("settle", T0, 1);
          holding++;
          wentOn++;
          most = Math.max(most, holding);
          // A few store round trips of work, then the hit is taken back (a success).
          for (let k = 0; k < i % 3; k++) await limits.count("settle", T0);
          holding--;
          return limits.release("settle", T0, 1);
        }),
      );
      expect(most).toBeLessThanOrEqual(10);
      expect(wentOn).toBeGreaterThanOrEqual(10);
      expect(await limits.count("settle", T0)).toBe(0);
    });

    it(`[${engine}] windows and keys count separately, and old windows can be deleted`, async () => {
      expect(await s.repositories.rateLimits.hit("k", at(0))).toBe(1);
      expect(await s.repositories.rateLimits.hit("k", at(1))).toBe(1);
      expect(await s.repositories.rateLimits.hit("other", at(1))).toBe(1);
      expect(await s.repositories.rateLimits.hit("k", at(1))).toBe(2);
      expect(await s.repositories.rateLimits.deleteWindowsBefore(at(1))).toBe(1);
      expect(await fx.probe.rateLimitCounters()).toHaveLength(2);
    });
  });

  describe("job queue", () => {
    const claim = (token: string, now = at(10), limit = 10, leaseMs = 60_000) =>
      s.repositories.jobs.claim("q", { limit, now, leaseMs, leaseToken: token });

    it(`[${engine}] claims due jobs oldest first, up to the limit, leaving future jobs`, async () => {
      for (const [minute, n] of [
        [5, 1],
        [1, 2],
        [3, 3],
        [30, 4],
      ] as const)
        await s.repositories.jobs.enqueue({ queue: "q", payload: { n }, runAt: at(minute) });
      await s.repositories.jobs.enqueue({ queue: "other", payload: {}, runAt: at(0) });
      const jobs = await claim("t1", at(10), 2);
      expect(jobs.map((j) => j.payload)).toEqual([{ n: 2 }, { n: 3 }]);
      expect(jobs[0]).toMatchObject({ queue: "q", attempts: 1, leaseToken: "t1", leaseExpiresAt: at(11) });
      expect((await claim("t2")).map((j) => j.payload)).toEqual([{ n: 1 }]);
      expect(await claim("t3")).toEqual([]);
    });

    it(`[${engine}] enqueueMany queues every job, claimable in run-at order; an empty list is nothing`, async () => {
      await s.repositories.jobs.enqueueMany([]);
      await s.repositories.jobs.enqueueMany(
        Array.from({ length: 600 }, (_, i) => ({ queue: "q", payload: { i }, runAt: at(i % 2 === 0 ? 1 : 2) })),
      );
      const jobs = await claim("tm", at(10), 1000);
      expect(jobs).toHaveLength(600);
      expect(jobs.slice(0, 3).map((j) => j.payload)).toEqual([{ i: 0 }, { i: 2 }, { i: 4 }]);
      expect(jobs[0]).toMatchObject({ queue: "q", attempts: 1, runAt: at(1) });
    });

    it(`[${engine}] completeMany completes the jobs its lease tokens still hold, across tokens and past 500, and counts them`, async () => {
      await s.repositories.jobs.enqueueMany(
        Array.from({ length: 620 }, (_, i) => ({ queue: "q", payload: { i }, runAt: at(1) })),
      );
      const first = await claim("ta", at(10), 610);
      const second = await claim("tb", at(10), 10);
      expect(await s.repositories.jobs.completeMany([], at(11), "w")).toBe(0);
      // One job of each claim is left out, and one is given a token that does not hold it.
      const done = [...first.slice(1), ...second.slice(1)].map((j) => ({ id: j.id, leaseToken: j.leaseToken }));
      expect(
        await s.repositories.jobs.completeMany([...done, { id: second[0]!.id, leaseToken: "ta" }], at(11), "w"),
      ).toBe(618);
      // Completed jobs are not completed twice; the two left out still are the claims' own.
      expect(await s.repositories.jobs.completeMany(done.slice(0, 5), at(12), "w")).toBe(0);
      expect(
        await s.repositories.jobs.completeMany(
          [first[0]!, second[0]!].map((j) => ({ id: j.id, leaseToken: j.leaseToken })),
          at(12),
          "w",
        ),
      ).toBe(2);
      expect(await claim("tc", at(10_000_000), 1000)).toEqual([]);
    });

    it(`[${engine}] a lease keeps the job from others until it expires; then it is claimable again`, async () => {
      const id = await s.repositories.jobs.enqueue({ queue: "q", payload: null, runAt: at(0) });
      expect((await claim("a", at(1), 10, 5_000)).map((j) => j.id)).toEqual([id]);
      expect(await claim("b", at(1))).toEqual([]);
      const again = await claim("b", new Date(at(1).getTime() + 5_000));
      expect(again).toMatchObject([{ id, attempts: 2, leaseToken: "b" }]);
      expect(await s.repositories.jobs.complete(id, "a", at(2), "worker-a")).toBe(false);
      expect(await s.repositories.jobs.complete(id, "b", at(2), "worker-b")).toBe(true);
      const row = (await fx.probe.jobs()).find((j) => j.id === id);
      expect(row).toMatchObject({ status: "done", completedBy: "worker-b", leaseToken: null });
      expect(await s.repositories.jobs.complete(id, "b", at(2), "worker-b")).toBe(false);
    });

    it(`[${engine}] renewLeases extends the leases its tokens still hold, never a job claimed by another or settled`, async () => {
      const enqueue = () => s.repositories.jobs.enqueue({ queue: "q", payload: null, runAt: at(0) });
      const [kept, lost, done] = [await enqueue(), await enqueue(), await enqueue()];
      const lease = (id: number, leaseToken: string) => ({ id, leaseToken });
      expect((await claim("a", at(1), 10, 3_000)).map((j) => j.id)).toEqual([kept, lost, done]);
      const later = (ms: number) => new Date(at(1).getTime() + ms);
      expect(await s.repositories.jobs.renewLeases([], later(1_000), 3_000)).toBe(0);
      // A heartbeat at +2 s keeps all three past their first expiry (+3 s).
      expect(
        await s.repositories.jobs.renewLeases(
          [kept, lost, done].map((id) => lease(id, "a")),
          later(2_000),
          3_000,
        ),
      ).toBe(3);
      expect(await claim("b", later(4_000))).toEqual([]);
      // One lapses (no heartbeat at +4.5 s for it) and is taken over; one is completed.
      expect(await s.repositories.jobs.renewLeases([lease(kept, "a")], later(4_500), 3_000)).toBe(1);
      expect(await s.repositories.jobs.complete(done, "a", later(4_600), "worker-a")).toBe(true);
      expect((await claim("b", later(5_000))).map((j) => j.id)).toEqual([lost]);
      // The old holder's next heartbeat renews only the job it still holds.
      expect(
        await s.repositories.jobs.renewLeases(
          [kept, lost, done].map((id) => lease(id, "a")),
          later(6_000),
          3_000,
        ),
      ).toBe(1);
      expect(await claim("c", later(8_500))).toEqual([]);
      expect((await claim("c", later(9_000))).map((j) => j.id)).toEqual([kept]);
      expect((await fx.probe.jobs()).find((j) => j.id === lost)).toMatchObject({ leaseToken: "b" });
    });

    it(`[${engine}] reschedule makes the job pending later; fail ends it`, async () => {
      const id = await s.repositories.jobs.enqueue({ queue: "q", payload: null, runAt: at(0) });
      await claim("a");
      expect(await s.repositories.jobs.reschedule(id, "a", at(20), "HTTP 503")).toBe(true);
      expect(await claim("b", at(19))).toEqual([]);
      const [job] = await claim("b", at(20));
      expect(job).toMatchObject({ id, attempts: 2 });
      expect(await s.repositories.jobs.fail(id, "b", at(21), "gave up")).toBe(true);
      expect(await claim("c", at(99))).toEqual([]);
      expect((await fx.probe.jobs()).find((j) => j.id === id)).toMatchObject({
        status: "failed",
        lastError: "gave up",
      });
    });

    it(`[${engine}] a job enqueued in a failed transaction never exists`, async () => {
      await expect(
        s.transaction(async (tx) => {
          await tx.jobs.enqueue({ queue: "q", payload: null, runAt: at(0) });
          throw new Error("rollback");
        }),
      ).rejects.toThrow("rollback");
      expect(await fx.probe.jobs()).toHaveLength(0);
    });

    it(`[${engine}] 8 concurrent claimers never hold the same job: 120 jobs, each claimed once`, async () => {
      for (let i = 0; i < 120; i++) await s.repositories.jobs.enqueue({ queue: "q", payload: { i }, runAt: at(0) });
      const seen: number[] = [];
      await Promise.all(
        Array.from({ length: 8 }, async (_, w) => {
          for (let round = 0; ; round++) {
            const jobs = await claim(`w${w}-${round}`, at(1), 7);
            if (jobs.length === 0) return;
            for (const j of jobs) {
              seen.push(j.id);
              expect(await s.repositories.jobs.complete(j.id, j.leaseToken, at(1), `w${w}`)).toBe(true);
            }
          }
        }),
      );
      expect(seen).toHaveLength(120);
      expect(new Set(seen).size).toBe(120);
      const rows = (await fx.probe.jobs()).filter((j) => j.status === "done");
      expect(rows).toHaveLength(120);
      expect(rows.every((r) => r.attempts === 1)).toBe(true);
    });
  });

  describe("locks", () => {
    it(`[${engine}] one of 10 concurrent contenders gets a lock; it can extend it; others take it only after expiry`, async () => {
      const wins = await Promise.all(
        Array.from({ length: 10 }, (_, i) => s.repositories.locks.tryAcquire("tick", `p${i}`, at(0), 30_000)),
      );
      expect(wins.filter(Boolean)).toHaveLength(1);
      const holder = `p${wins.indexOf(true)}`;
      const other = holder === "p0" ? "p1" : "p0";
      expect(await s.repositories.locks.tryAcquire("tick", holder, at(0.25), 30_000)).toBe(true);
      expect(await s.repositories.locks.tryAcquire("tick", other, at(0.5), 30_000)).toBe(false);
      expect(await s.repositories.locks.tryAcquire("tick", other, at(0.75), 30_000)).toBe(true);
      await s.repositories.locks.release("tick", holder);
      expect((await fx.probe.locks()).find((l) => l.name === "tick")).toMatchObject({ holder: other });
      await s.repositories.locks.release("tick", other);
      expect(await fx.probe.locks()).toHaveLength(0);
    });
  });

  describe("failures", () => {
    it(`[${engine}] ping answers while open; a closed store rejects instead of reporting "not found"`, async () => {
      await expect(s.ping()).resolves.toBeUndefined();
      await s.close();
      await expect(s.repositories.patients.findById(1, 1)).rejects.toThrow();
      await expect(s.ping()).rejects.toThrow();
    });
  });
}
