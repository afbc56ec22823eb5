import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);

// Blocks and GET /v2/slots (spec 4.7) on every engine this run has (SQLite; PostgreSQL and MariaDB in CI).
for (const engine of availableEngines()) {
  describe(`[${engine}] v2 blocks and bookable slots`, () => {
    let rt: TestRuntime;
    let admin: string;
    const ids = { newYork: "", phoenix: "", provider: "", userId: "501", patient: 0, type: "" };

    const json = async (res: Response) => ({ status: res.status, body: await res.json(), res });
    const call = (method: string, path: string, body?: unknown, token?: string) =>
      rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) }).then(json);
    const slots = async (query: string) => {
      const r = await call("GET", `/v2/slots?provider_id=${ids.provider}&${query}`);
      if (r.status !== 200) throw new Error(`${r.status} ${JSON.stringify(r.body)}`);
      return r.body.data[0] as { slots: string[]; next_available_date: string | null; time_zone: string };
    };
    const shift = (over: Record<string, unknown>) =>
      call("POST", `/v2/providers/${ids.provider}/schedules`, {
        clinic_id: ids.newYork,
        start_time: "09:00",
        end_time: "17:00",
        effective_from: "2027-01-01",
        ...over,
      });
    const book = (startIso: string, minutes: number, clinic = ids.newYork) =>
      call("POST", "/apis/v1/appointment", {
        doctor_id: Number(ids.userId),
        patient_id: ids.patient,
        clinic_id: Number(clinic),
        appointment_category: [Number(ids.type)],
        timestamp: unix(startIso),
        end_timestamp: unix(startIso) + minutes * 60,
        payment_mode: "SELF_PAY",
      });

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      admin = await rt.token({ scope: "admin read write" });
      ids.newYork = (await call("POST", "/v2/clinics", { name: "New York", time_zone: "America/New_York" })).body.id;
      ids.phoenix = (await call("POST", "/v2/clinics", { name: "Phoenix", time_zone: "America/Phoenix" })).body.id;
      ids.provider = (
        await call("POST", "/v2/providers", {
          user_id: ids.userId,
          first_name: "Sam",
          last_name: "Slots",
          clinic_ids: [ids.newYork, ids.phoenix],
        })
      ).body.id;
      ids.type = (
        await call("POST", "/v2/appointment-types", { name: "Visit", type: "IN_PERSON", duration_minutes: 30 }, admin)
      ).body.id;
      ids.patient = (
        await call("POST", "/apis/v1/patient", { first_name: "Pat", last_name: "Slot", date_of_birth: "1980-01-01" })
      ).body.data.patient_id;
      expect((await shift({ weekdays: ["SU"] })).status).toBe(201);
      expect(
        (await shift({ clinic_id: ids.phoenix, weekdays: ["MO"], start_time: "08:00", end_time: "10:00" })).status,
      ).toBe(201);
    });
    afterAll(() => rt.stop());

    it("give 09:00 local on the days daylight saving begins and ends, and keep a zone without DST", async () => {
      const at = async (clinic: string, date: string) =>
        (await slots(`clinic_id=${clinic}&slot_length=60&days=1&start_date=${date}`)).slots;
      // 2027-03-14 and 2027-11-07 are the Sundays New York changes its clocks.
      expect(await at(ids.newYork, "2027-03-07")).toEqual(
        ["09", "10", "11", "12", "13", "14", "15", "16"].map((h) => `2027-03-07T${h}:00:00-05:00`),
      );
      expect(await at(ids.newYork, "2027-03-14")).toEqual(
        ["09", "10", "11", "12", "13", "14", "15", "16"].map((h) => `2027-03-14T${h}:00:00-04:00`),
      );
      expect((await at(ids.newYork, "2027-11-07"))[0]).toBe("2027-11-07T09:00:00-05:00");
      for (const date of ["2027-03-15", "2027-07-12", "2027-11-08"])
        expect(await at(ids.phoenix, date)).toEqual([`${date}T08:00:00-07:00`, `${date}T09:00:00-07:00`]);
    });

    it("take the length from an appointment type and the step from slot_interval", async () => {
      const day = await slots(
        `clinic_id=${ids.newYork}&appointment_type_id=${ids.type}&slot_interval=60&start_date=2027-04-04&days=1`,
      );
      expect(day.time_zone).toBe("America/New_York");
      expect(day.slots).toHaveLength(8);
      expect(day.slots.at(-1)).toBe("2027-04-04T16:00:00-04:00");
    });

    it("leave out booked appointments, and a block lists the appointments it overlaps without cancelling them", async () => {
      const q = `clinic_id=${ids.newYork}&slot_length=60&start_date=2027-04-11&days=1`;
      expect((await book("2027-04-11T14:00:00Z", 60)).body.code).toBe(2000); // 10:00-11:00 local
      expect((await slots(q)).slots).not.toContain("2027-04-11T10:00:00-04:00");
      expect((await slots(q)).slots).toHaveLength(7);
      const block = await call("POST", `/v2/providers/${ids.provider}/blocks`, {
        start: "2027-04-11T09:30:00-04:00",
        end: "2027-04-11T12:00:00-04:00",
        reason: "Team meeting",
      });
      expect(block.status).toBe(201);
      expect(block.body.overlapping_appointment_count).toBe(1);
      expect(block.body.overlapping_appointments[0]).toMatchObject({
        start: "2027-04-11T14:00:00.000Z",
        status: "SCHEDULED",
      });
      expect((await slots(q)).slots).toEqual(["12", "13", "14", "15", "16"].map((h) => `2027-04-11T${h}:00:00-04:00`));
      // Removing the block frees its time (the appointment still holds 10:00).
      expect((await call("DELETE", `/v2/blocks/${block.body.id}`)).body.removed_at).toEqual(expect.any(String));
      expect((await slots(q)).slots).toHaveLength(7);
      expect((await call("DELETE", `/v2/blocks/${block.body.id}`)).status).toBe(404);
    });

    it("keep a recurring lunch block at noon local across the DST change", async () => {
      const created = await call("POST", `/v2/providers/${ids.provider}/blocks`, {
        start: "2027-10-31T12:00:00-04:00",
        end: "2027-10-31T13:00:00-04:00",
        reason: "Lunch",
        time_zone: "America/New_York",
        rrule: "FREQ=WEEKLY;BYDAY=SU;COUNT=3",
      });
      expect(created.status).toBe(201);
      for (const [date, offset] of [
        ["2027-10-31", "-04:00"],
        ["2027-11-07", "-05:00"],
        ["2027-11-14", "-05:00"],
      ] as const) {
        const day = (await slots(`clinic_id=${ids.newYork}&slot_length=60&start_date=${date}&days=1`)).slots;
        expect(day).toHaveLength(7);
        expect(day).not.toContain(`${date}T12:00:00${offset}`);
        expect(day).toContain(`${date}T13:00:00${offset}`);
      }
      const listed = await call(
        "GET",
        `/v2/providers/${ids.provider}/blocks?from=2027-11-10T00:00:00Z&to=2027-11-20T00:00:00Z`,
      );
      expect(listed.body.data.map((b: { id: string }) => b.id)).toEqual([created.body.id]);
    });

    it("answer next_available_date when the range has none, and null when none is found in 90 days", async () => {
      // Saturday: no shift that day; the next Sunday has one.
      const saturday = await slots(`clinic_id=${ids.newYork}&slot_length=60&start_date=2027-05-01&days=1`);
      expect(saturday).toMatchObject({ slots: [], next_available_date: "2027-05-02" });
      const tooLong = await slots(
        `clinic_id=${ids.newYork}&slot_length=480&slot_interval=60&start_date=2027-05-01&days=1`,
      );
      // An eight-hour visit fits the Sunday shift exactly.
      expect(tooLong).toMatchObject({ slots: [], next_available_date: "2027-05-02" });
      const never = await slots(`clinic_id=${ids.newYork}&slot_length=481&start_date=2027-05-01`).catch(
        (e: Error) => e.message,
      );
      expect(String(never)).toMatch(/^400 /);
      const empty = await call(
        "GET",
        `/v2/slots?provider_id=${ids.provider}&clinic_id=${ids.phoenix}&slot_length=180&start_date=2027-05-01`,
      );
      expect(empty.body.data[0]).toMatchObject({ slots: [], next_available_date: null });
    });

    it("refuse bad input naming the parameter or field, and unknown providers and clinics", async () => {
      const status = async (query: string) => {
        const r = await call("GET", `/v2/slots?${query}`);
        return [
          r.status,
          r.body.error?.details?.parameter ?? r.body.error?.details?.errors?.[0]?.field ?? r.body.error?.code,
        ];
      };
      const base = `provider_id=${ids.provider}&clinic_id=${ids.newYork}`;
      expect(await status(`${base}&slot_length=30&days=32`)).toEqual([400, "days"]);
      expect(await status(`${base}&slot_length=30&start_date=2027-02-30`)).toEqual([400, "start_date"]);
      expect(await status(base)).toEqual([400, "slot_length"]);
      expect(await status(`${base}&slot_length=30&appointment_type_id=${ids.type}`)).toEqual([400, "slot_length"]);
      expect(await status(`provider_id=999999&clinic_id=${ids.newYork}&slot_length=30`)).toEqual([
        404,
        "PROVIDER_NOT_FOUND",
      ]);
      expect(await status(`provider_id=${ids.provider}&clinic_id=999999&slot_length=30`)).toEqual([
        404,
        "CLINIC_NOT_FOUND",
      ]);
      expect(await status(`${base}&appointment_type_id=999999`)).toEqual([404, "APPOINTMENT_TYPE_NOT_FOUND"]);
      const blocks = `/v2/providers/${ids.provider}/blocks`;
      const field = async (body: Record<string, unknown>) => {
        const r = await call("POST", blocks, {
          start: "2027-06-01T10:00:00Z",
          end: "2027-06-01T11:00:00Z",
          reason: "x",
          ...body,
        });
        return [r.status, r.body.error?.details?.errors?.[0]?.field];
      };
      expect(await field({ end: "2027-06-01T09:00:00Z" })).toEqual([400, "end"]);
      expect(await field({ rrule: "FREQ=DAILY;COUNT=3" })).toEqual([400, "time_zone"]);
      expect(await field({ rrule: "FREQ=DAILY", time_zone: "UTC" })).toEqual([400, "rrule"]);
      expect(await field({ rrule: "FREQ=DAILY;COUNT=5000", time_zone: "UTC" })).toEqual([400, "rrule"]);
      expect(await field({ reason: "" })).toEqual([400, "reason"]);
    });
  });
}
