import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// The billing-code catalog over HTTP, on every engine this run has.
for (const engine of availableEngines()) {
  describe(`[${engine}] v1 treatment catalog over HTTP`, () => {
    let rt: TestRuntime;
    let admin: string;
    let appointmentId = 0;
    const gp = {
      cpt_modifier_id: 1,
      cpt_modifier_code: "GP",
      class_name: "Therapy plan",
      description: "Under a PT plan of care",
      filter: true,
    };

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      admin = await rt.token({ scope: "admin read" });
      const r = rt.runtime.practice.storage.repositories;
      const now = new Date();
      await r.organisations.ensure({ id: 1, name: "o", plan: "free", now });
      const clinic = (await r.organisations.ensureClinic({ organisationId: 1, name: "Main", timeZone: "UTC" })).id;
      await r.organisations.upsertProvider({
        organisationId: 1,
        userId: 101,
        firstName: "D",
        lastName: "R",
        npi: null,
        supervisingUserId: null,
        clinicIds: [clinic],
      });
      const category = (
        await r.catalog.ensureAppointmentCategory({
          organisationId: 1,
          name: "Visit",
          type: "IN_PERSON",
          durationMinutes: 45,
        })
      ).id;
      const patient = (
        await (
          await rt.call("POST", "/apis/v1/patient", {
            body: { first_name: "Cat", last_name: "Alog", date_of_birth: "1980-01-01" },
          })
        ).json()
      ).data.patient_id;
      const start = Math.floor(Date.parse("2031-10-01T15:00:00Z") / 1000);
      appointmentId = (
        await (
          await rt.call("POST", "/apis/v1/appointment", {
            body: {
              doctor_id: 101,
              patient_id: patient,
              clinic_id: clinic,
              appointment_category: [category],
              timestamp: start,
              end_timestamp: start + 2700,
              payment_mode: "INSURANCE_PAY",
            },
          })
        ).json()
      ).data.appointment_id;
    });
    afterAll(async () => {
      await rt.stop();
    });

    const upload = async (codes: unknown[], token = admin) => {
      const res = await rt.call("POST", "/apis/v1/treatment-catalog", { body: { codes }, token });
      return { status: res.status, body: await res.json() };
    };
    const latest = async (q: string) =>
      (await rt.call("GET", `/apis/v1/treatment-catalog/latest?appointment_id=${appointmentId}&${q}`)).json();

    it("uploads codes (insert, then replace by number) and needs the admin scope", async () => {
      const first = await upload([
        { code: "97110", description: "Strength and range-of-motion exercise", timed: true, modifiers: [gp] },
        { code: "97161", description: "Evaluation, low complexity", timed: false, note_types: ["INITIAL_SOAP"] },
        { code: "95992", description: "Vertigo repositioning, per day", timed: false, specialities: ["VESTIBULAR"] },
        { code: "97140", description: "Manual therapy", timed: true, payer_ids: ["ACME01"] },
      ]);
      expect(first.body).toMatchObject({ code: 2000, data: { created: 4, updated: 0 } });
      expect(
        (
          await upload([
            { code: "97110", description: "Therapeutic exercise (our words)", timed: true, modifiers: [gp] },
          ])
        ).body.data,
      ).toEqual({ created: 0, updated: 1 });
      const all = (await (await rt.call("GET", "/apis/v1/treatment-catalog")).json()).data;
      expect(all.map((c: { code: string }) => c.code)).toEqual(["95992", "97110", "97140", "97161"]);
      expect(all[1]).toEqual({
        treatment_class_id: expect.any(Number),
        code: "97110",
        description: "Therapeutic exercise (our words)",
        timed: true,
        unit_minutes: 15,
        modifiers: [gp],
        specialities: [],
        note_types: [],
        payer_ids: [],
        active: true,
      });
      expect(
        (await upload([{ code: "97530", description: "x", timed: true }], await rt.token({ scope: "read write" })))
          .status,
      ).toBe(403);
    });

    it("refuses a bad upload naming the row and field, and writes nothing", async () => {
      const before = Number(await rt.scalar("select count(*) from billing_codes"));
      const bad = await upload([
        { code: "97530", description: "Fine", timed: true },
        { code: "9753", description: "Short code", timed: true },
        { code: "97530", description: "Twice", timed: false },
        { code: "97535", description: "Bad modifier", timed: true, modifiers: [{ ...gp, cpt_modifier_code: "G!" }] },
      ]);
      expect(bad.status).toBe(400);
      expect(bad.body.errors.map((e: { field: string }) => e.field)).toEqual([
        "codes.1.code",
        "codes.2.code",
        "codes.3.modifiers.0.cpt_modifier_code",
      ]);
      expect(Number(await rt.scalar("select count(*) from billing_codes"))).toBe(before);
    });

    it("treatment-catalog/latest returns the codes that apply to the speciality, note type and payer", async () => {
      const codes = async (q: string) => (await latest(q)).data.codes.map((c: { code: string }) => c.code);
      expect(await codes("speciality=MSK")).toEqual(["97110"]);
      expect(await codes("speciality=MSK&soap_note_type=INITIAL_SOAP")).toEqual(["97110", "97161"]);
      expect(await codes("speciality=VESTIBULAR&payerId=ACME01&icdCodes=H81.10")).toEqual(["95992", "97110", "97140"]);
      const missing = await rt.call("GET", "/apis/v1/treatment-catalog/latest?appointment_id=987654&speciality=MSK");
      expect(missing.status).toBe(404);
      expect((await missing.json()).code).toBe(4004);
      expect((await rt.call("GET", `/apis/v1/treatment-catalog/latest?appointment_id=${appointmentId}`)).status).toBe(
        400,
      );
    });
  });
}
