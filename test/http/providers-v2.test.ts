import { npiCheckDigit } from "@openpractice/core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

/** A valid NPI from a 9-digit stem. */
const npi = (stem: number) => `${String(stem).padStart(9, "0")}${npiCheckDigit(String(stem).padStart(9, "0"))}`;

// Spec 4.7 providers on every engine this run has; v1's list and booking read the same rows.
for (const engine of availableEngines()) {
  describe(`[${engine}] v2 providers`, () => {
    let rt: TestRuntime;
    let clinic = "";
    let user = 5000;
    let stem = 123450000;
    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      const created = await rt.call("POST", "/v2/clinics", { body: { name: "Main", time_zone: "America/Chicago" } });
      clinic = (await created.json()).id;
    });
    afterAll(async () => {
      await rt.stop();
    });

    const json = async (res: Response) => ({ status: res.status, body: await res.json() });
    const create = (over: Record<string, unknown> = {}, token?: string) =>
      rt
        .call("POST", "/v2/providers", {
          body: { user_id: String(++user), first_name: "Dana", last_name: "Reyes", npi: npi(++stem), ...over },
          ...(token ? { token } : {}),
        })
        .then(json);

    it("adds a provider with credentials, licence, clinics and supervisor; v1 lists it and books with it", async () => {
      const supervisor = await create({ credentials: ["DPT"], clinic_ids: [clinic] });
      expect(supervisor.status).toBe(201);
      const { status, body } = await create({
        first_name: "Sam",
        last_name: "Ortiz",
        credentials: ["PTA"],
        licence_number: "PTA-0042",
        licence_state: "IL",
        specialities: ["orthopedics", "vestibular"],
        clinic_ids: [Number(clinic)],
        supervising_user_id: supervisor.body.user_id,
        requires_cosign: true,
      });
      expect(status).toBe(201);
      expect(body).toMatchObject({
        id: expect.stringMatching(/^\d+$/),
        user_id: String(user),
        credentials: ["PTA"],
        licence_number: "PTA-0042",
        licence_state: "IL",
        specialities: ["orthopedics", "vestibular"],
        clinic_ids: [clinic],
        supervising_user_id: supervisor.body.user_id,
        requires_cosign: true,
        active: true,
      });
      expect((await json(await rt.call("GET", `/v2/providers/${body.id}`))).body).toEqual(body);
      const v1 = (await json(await rt.call("GET", "/apis/v1/providers"))).body.data;
      expect(v1.find((p: { doctor_id: number }) => String(p.doctor_id) === body.user_id)).toMatchObject({
        first_name: "Sam",
        supervising_physician_id: Number(supervisor.body.user_id),
        clinic_ids: [Number(clinic)],
      });
      const events = await rt.rawRows("select data from outbox where event_type = ?", "provider.created");
      expect(events.some((e) => JSON.parse(String(e.data)).provider_id === Number(body.id))).toBe(true);

      // Deactivated, they cannot be booked; reactivated, they can.
      const patient = (
        await json(
          await rt.call("POST", "/v2/patients", {
            body: { first_name: "Ada", last_name: "Byron", date_of_birth: "1985-12-10" },
          }),
        )
      ).body;
      const r = rt.runtime.practice.storage.repositories;
      const category = await r.catalog.ensureAppointmentCategory({
        organisationId: 1,
        name: "Eval",
        type: "IN_PERSON",
        durationMinutes: 60,
      });
      const book = (start: number) =>
        rt
          .call("POST", "/apis/v1/appointment", {
            body: {
              doctor_id: Number(body.user_id),
              patient_id: Number(patient.id),
              clinic_id: Number(clinic),
              appointment_category: [category.id],
              timestamp: start,
              end_timestamp: start + 3600,
              payment_mode: "SELF_PAY",
            },
          })
          .then(json);
      expect(
        (await json(await rt.call("PATCH", `/v2/providers/${body.id}`, { body: { active: false } }))).body.active,
      ).toBe(false);
      const refused = await book(4102444800);
      expect(refused.body.code).not.toBe(2000);
      expect(refused.body.errors?.[0] ?? refused.body).toMatchObject({ field: "doctor_id" });
      await rt.call("PATCH", `/v2/providers/${body.id}`, { body: { active: true } });
      expect((await book(4102448400)).body.code).toBe(2000);
      // An inactive appointment type cannot be booked either.
      const admin = await rt.token({ scope: "read write admin" });
      await rt.call("PATCH", `/v2/appointment-types/${category.id}`, { body: { active: false }, token: admin });
      const inactiveType = await book(4102452000);
      expect(inactiveType.body.errors?.[0]).toMatchObject({ field: "appointment_category" });
    });

    it("names bad fields and unknown references with 400, writing nothing", async () => {
      const before = Number(await rt.scalar("select count(*) from providers"));
      const bad = await create({ npi: "1234567890", credentials: ["dpt"], licence_state: "Illinois" });
      expect(bad.status).toBe(400);
      expect(bad.body.error.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        "credentials.0",
        "licence_state",
      ]);
      const check = await create({ npi: "1234567890" });
      expect(check.body.error.details.errors[0]).toMatchObject({
        field: "npi",
        reason: expect.stringContaining("check digit"),
      });
      const refs = await create({ clinic_ids: ["999999"], supervising_user_id: "999999" });
      expect(refs.body.error.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        "clinic_ids.0",
        "supervising_user_id",
      ]);
      const alone = await create({ requires_cosign: true });
      expect(alone.body.error.details.errors[0]).toMatchObject({ field: "requires_cosign" });
      const self = await create({ user_id: "777", supervising_user_id: "777" });
      expect(self.body.error.details.errors[0]).toMatchObject({ field: "supervising_user_id" });
      expect(Number(await rt.scalar("select count(*) from providers"))).toBe(before);
    });

    it("refuses another provider's NPI or user id (409 naming it), on create and on change", async () => {
      const a = await create();
      const sameNpi = await create({ npi: a.body.npi });
      expect(sameNpi.status).toBe(409);
      expect(sameNpi.body.error).toMatchObject({
        code: "DUPLICATE_PROVIDER",
        details: { existing_provider_id: a.body.id, field: "npi" },
      });
      const sameUser = await create({ user_id: a.body.user_id });
      expect(sameUser.body.error.details).toMatchObject({ existing_provider_id: a.body.id, field: "user_id" });
      const b = await create();
      const moved = await json(await rt.call("PATCH", `/v2/providers/${b.body.id}`, { body: { npi: a.body.npi } }));
      expect(moved.status).toBe(409);
      expect((await json(await rt.call("GET", `/v2/providers/${b.body.id}`))).body.npi).toBe(b.body.npi);
    });

    it("of 20 concurrent adds with one NPI exactly one is created", async () => {
      const shared = npi(++stem);
      const results = await Promise.all(Array.from({ length: 20 }, () => create({ npi: shared })));
      expect(results.filter((r) => r.status === 201)).toHaveLength(1);
      const refused = results.filter((r) => r.status === 409);
      expect(refused).toHaveLength(19);
      const winner = results.find((r) => r.status === 201)!.body.id;
      for (const r of refused) expect(r.body.error.details.existing_provider_id).toBe(winner);
    });

    it("lists by last name with search, clinic and status; 404 across organisations; needs the providers scopes", async () => {
      const token = await rt.token({ organisationId: 9 });
      for (const [first, last, credentials] of [
        ["Zoë", "Álvarez", ["DC"]],
        ["Ann", "Brooks", ["DPT"]],
        ["Ben", "Carter", ["PTA"]],
      ] as const)
        expect((await create({ first_name: first, last_name: last, credentials }, token)).status).toBe(201);
      const list = async (q: string) => (await json(await rt.call("GET", `/v2/providers${q}`, { token }))).body;
      expect((await list("")).data.map((p: { last_name: string }) => p.last_name)).toEqual([
        "Álvarez",
        "Brooks",
        "Carter",
      ]);
      expect((await list("?search=dpt")).data.map((p: { first_name: string }) => p.first_name)).toEqual(["Ann"]);
      expect((await list("?search=alvarez&fields=npi")).data[0]).toEqual({
        id: expect.any(String),
        npi: expect.any(String),
      });
      const theirs = (await list("")).data[0].id;
      expect((await rt.call("GET", `/v2/providers/${theirs}`)).status).toBe(404);
      const reader = await rt.token({ scope: "providers:read" });
      expect((await rt.call("GET", "/v2/providers", { token: reader })).status).toBe(200);
      expect((await create({}, reader)).status).toBe(403);
    });
  });
}
