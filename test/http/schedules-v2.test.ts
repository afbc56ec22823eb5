import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// Working hours (spec 4.7 /v2/providers/{id}/schedules) on every engine this run has (SQLite; PostgreSQL and MariaDB in CI).
for (const engine of availableEngines()) {
  describe(`[${engine}] v2 provider schedules`, () => {
    let rt: TestRuntime;
    const ids = { chicago: "", newYork: "", elsewhere: "", provider: "", other: "", foreignProvider: "" };
    let foreignToken: string;

    const json = async (res: Response) => ({ status: res.status, body: await res.json(), res });
    const call = (method: string, path: string, body?: unknown, token?: string) =>
      rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) }).then(json);
    const rows = async () => Number(await rt.scalar("select count(*) from provider_schedules"));
    const schedule = (over: Record<string, unknown> = {}) => ({
      clinic_id: ids.chicago,
      weekdays: ["MO"],
      start_time: "09:00",
      end_time: "13:00",
      effective_from: "2027-01-04",
      ...over,
    });
    const add = (over: Record<string, unknown> = {}, provider = ids.provider) =>
      call("POST", `/v2/providers/${provider}/schedules`, schedule(over));

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      foreignToken = await rt.token({ organisationId: 2 });
      const clinic = async (name: string, time_zone: string, token?: string) =>
        (await call("POST", "/v2/clinics", { name, time_zone }, token)).body.id as string;
      ids.chicago = await clinic("Chicago", "America/Chicago");
      ids.newYork = await clinic("New York", "America/New_York");
      ids.elsewhere = await clinic("Elsewhere", "America/Chicago", foreignToken);
      const provider = async (user_id: string, clinic_ids: string[], token?: string) =>
        (await call("POST", "/v2/providers", { user_id, first_name: "Sam", last_name: user_id, clinic_ids }, token))
          .body.id as string;
      ids.provider = await provider("501", [ids.chicago, ids.newYork]);
      ids.other = await provider("502", [ids.chicago]);
      ids.foreignProvider = await provider("601", [ids.elsewhere], foreignToken);
    });
    afterAll(() => rt.stop());

    it("adds a weekly shift (201, Location) and lists it", async () => {
      const created = await add();
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({
        provider_id: ids.provider,
        clinic_id: ids.chicago,
        weekdays: ["MO"],
        start_time: "09:00",
        end_time: "13:00",
        effective_from: "2027-01-04",
        effective_until: null,
        rrule: null,
        replaces_schedule_id: null,
        replaced_by_schedule_id: null,
      });
      expect(created.res.headers.get("location")).toBe(`/v2/schedules/${created.body.id}`);
      expect((await call("GET", `/v2/schedules/${created.body.id}`)).body).toEqual(created.body);
      const list = await call("GET", `/v2/providers/${ids.provider}/schedules`);
      expect(list.body.data.map((s: { id: string }) => s.id)).toContain(created.body.id);
      expect(list.body.pagination).toMatchObject({ current_page: 1, per_page: 20 });
    });

    it("refuses an overlapping shift at another clinic, across time zones, naming the other shift; writes nothing", async () => {
      const mondays = await add({ clinic_id: ids.chicago, weekdays: ["TH"], start_time: "09:00", end_time: "10:00" });
      const before = await rows();
      // 10:30 in New York is 09:30 in Chicago.
      const clash = await add({ clinic_id: ids.newYork, weekdays: ["TH"], start_time: "10:30", end_time: "11:00" });
      expect(clash.status).toBe(409);
      expect(clash.body.error.code).toBe("SCHEDULE_OVERLAP");
      expect(clash.body.error.details).toMatchObject({
        conflicting_schedule_id: mondays.body.id,
        clinic_id: ids.chicago,
        overlap_start: "2027-01-07T15:30:00.000Z",
      });
      expect(await rows()).toBe(before);
      // Touching is not overlapping: 11:00-12:00 New York starts when the Chicago shift ends.
      expect(
        (await add({ clinic_id: ids.newYork, weekdays: ["TH"], start_time: "11:00", end_time: "12:00" })).status,
      ).toBe(201);
      // Another provider's shifts are theirs.
      expect((await add({ weekdays: ["TH"] }, ids.other)).status).toBe(201);
    });

    it("replaces a shift with a new version: the old one ends the day before, history stays", async () => {
      const first = await add({
        weekdays: ["FR"],
        start_time: "08:00",
        end_time: "12:00",
        effective_from: "2027-01-08",
      });
      const second = await add({
        weekdays: ["FR"],
        start_time: "10:00",
        end_time: "14:00",
        effective_from: "2027-03-05",
        replaces_schedule_id: first.body.id,
      });
      expect(second.status).toBe(201);
      expect(second.body.replaces_schedule_id).toBe(first.body.id);
      const old = (await call("GET", `/v2/schedules/${first.body.id}`)).body;
      expect(old).toMatchObject({ effective_until: "2027-03-04", replaced_by_schedule_id: second.body.id });
      const again = await add({ weekdays: ["FR"], effective_from: "2027-06-04", replaces_schedule_id: first.body.id });
      expect([again.status, again.body.error.code]).toEqual([409, "SCHEDULE_ALREADY_REPLACED"]);
      const early = await add({ weekdays: ["SA"], effective_from: "2027-03-05", replaces_schedule_id: second.body.id });
      expect([early.status, early.body.error.details.errors[0].field]).toEqual([400, "effective_from"]);
      // Every version is listed with status=all, newest first.
      const all = (await call("GET", `/v2/providers/${ids.provider}/schedules?status=all&per_page=100`)).body.data;
      expect(all.map((s: { id: string }) => s.id).indexOf(second.body.id)).toBeLessThan(
        all.map((s: { id: string }) => s.id).indexOf(first.body.id),
      );
    });

    it("follows an every-other-week RRULE and checks overlaps on its weeks only", async () => {
      const odd = await add({
        weekdays: undefined,
        rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
        effective_from: "2027-01-05",
        effective_until: "2027-12-31",
      });
      expect([odd.status, odd.body.weekdays, odd.body.rrule]).toEqual([201, [], "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU"]);
      const even = await add({
        clinic_id: ids.newYork,
        weekdays: undefined,
        rrule: "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU",
        effective_from: "2027-01-12",
        effective_until: "2027-12-31",
      });
      expect(even.status).toBe(201);
      const weekly = await add({ clinic_id: ids.newYork, weekdays: ["TU"], start_time: "11:00", end_time: "12:00" });
      expect([weekly.status, weekly.body.error.code]).toEqual([409, "SCHEDULE_OVERLAP"]);
    });

    it("names the field of bad input and changes nothing", async () => {
      const before = await rows();
      const field = async (over: Record<string, unknown>) => {
        const r = await add(over);
        return [r.status, r.body.error.details.errors?.[0]?.field ?? r.body.error.code];
      };
      expect(await field({ start_time: "17:00", end_time: "09:00" })).toEqual([400, "end_time"]);
      expect(await field({ start_time: "9am" })).toEqual([400, "start_time"]);
      expect(await field({ effective_from: "2027-02-30" })).toEqual([400, "effective_from"]);
      expect(await field({ effective_until: "2026-12-31" })).toEqual([400, "effective_until"]);
      expect(await field({ weekdays: ["XX"] })).toEqual([400, "weekdays.0"]);
      expect(await field({ weekdays: undefined, rrule: "FREQ=SOMETIMES" })).toEqual([400, "rrule"]);
      expect(await field({ weekdays: undefined, rrule: "FREQ=WEEKLY;BYDAY=MO" })).toEqual([400, "rrule"]);
      expect(await field({ rrule: "FREQ=WEEKLY;COUNT=4;BYDAY=MO" })).toEqual([400, "weekdays"]);
      expect(await field({ weekdays: undefined })).toEqual([400, "weekdays"]);
      const notThere = await add({ weekdays: ["SU"] }, ids.other).then(() =>
        call("POST", `/v2/providers/${ids.other}/schedules`, schedule({ clinic_id: ids.newYork, weekdays: ["SA"] })),
      );
      expect([notThere.status, notThere.body.error.details.errors[0].field]).toEqual([400, "clinic_id"]);
      expect(await rows()).toBe(before + 1);
    });

    it("answers 404 for unknown providers, clinics and schedules, and for another organisation's", async () => {
      const before = await rows();
      const code = async (p: Promise<{ status: number; body: { error: { code: string } } }>) => {
        const r = await p;
        return [r.status, r.body.error.code];
      };
      expect(await code(add({}, "999999"))).toEqual([404, "PROVIDER_NOT_FOUND"]);
      expect(await code(add({}, ids.foreignProvider))).toEqual([404, "PROVIDER_NOT_FOUND"]);
      expect(await code(add({ clinic_id: ids.elsewhere }))).toEqual([404, "CLINIC_NOT_FOUND"]);
      expect(await code(add({ weekdays: ["SA"], replaces_schedule_id: "999999" }))).toEqual([
        404,
        "SCHEDULE_NOT_FOUND",
      ]);
      expect(await code(call("GET", `/v2/providers/${ids.foreignProvider}/schedules`))).toEqual([
        404,
        "PROVIDER_NOT_FOUND",
      ]);
      const mine = (await call("GET", `/v2/providers/${ids.provider}/schedules`)).body.data[0].id;
      expect(await code(call("GET", `/v2/schedules/${mine}`, undefined, foreignToken))).toEqual([
        404,
        "SCHEDULE_NOT_FOUND",
      ]);
      expect(await rows()).toBe(before);
    });

    it("stores one of ten concurrent overlapping shifts of one provider", async () => {
      const results = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          // 07:00-08:00 in Chicago is 08:00-09:00 in New York: the same hour.
          i % 2
            ? add({ clinic_id: ids.chicago, weekdays: ["WE"], start_time: "07:00", end_time: "08:00" })
            : add({ clinic_id: ids.newYork, weekdays: ["WE"], start_time: "08:00", end_time: "09:00" }),
        ),
      );
      expect(results.map((r) => r.status).sort()).toEqual([201, ...Array(9).fill(409)]);
    });

    it("records each write in the audit trail", async () => {
      const created = await add({ weekdays: ["SU"], start_time: "06:00", end_time: "07:00" });
      const audited = await rt.rawRows(
        "select action, resource_type from audit_events where action = ? and organisation_id = 1",
        "v2CreateSchedule",
      );
      expect(created.status).toBe(201);
      expect(audited.length).toBeGreaterThan(0);
      expect(audited.every((r) => r.resource_type === "schedule")).toBe(true);
    });
  });
}
