import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

/** A local date in Chicago `days` from today, YYYY-MM-DD. */
const chicagoDate = (days: number) =>
  new Intl.DateTimeFormat("en-CA", { timeZone: "America/Chicago" }).format(new Date(Date.now() + days * 86_400_000));

// v1 blocks with series edits (issue 49, part 2) over HTTP on every engine this run has: a weekly lunch created on
// v1, one occurrence moved by modify-block, the series split, GET /v2/slots following each step to the minute across
// the spring and autumn clock changes; deletions with each scope; a deletion's freed time offered by the waitlist;
// bad input that changes nothing; audit entries naming the scope.
for (const engine of availableEngines()) {
  describe(`[${engine}] v1 blocks and recurring series`, () => {
    let rt: TestRuntime;
    const ids = { clinic: "", provider: "", type: "", patient: "" };
    const DOCTOR = 801;
    const call = async (method: string, path: string, body?: unknown) => {
      const res = await rt.call(method, path, body === undefined ? {} : { body });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const post = (path: string, body?: unknown) => call("POST", path, body);
    const get = (path: string) => call("GET", path);
    /** The slots of one day between 11:00 and 14:00 Chicago time, as HH:MM. */
    const noon = async (date: string) =>
      (
        await get(
          `/v2/slots?provider_id=${ids.provider}&clinic_id=${ids.clinic}&slot_length=30&start_date=${date}&days=1`,
        )
      ).body.data[0].slots
        .map((s: string) => s.slice(11, 16))
        .filter((t: string) => t >= "11:00" && t < "14:00");
    const ALL = ["11:00", "11:30", "12:00", "12:30", "13:00", "13:30"];

    beforeAll(async () => {
      rt = await startTestRuntime(
        { OPENPRACTICE_PLAN_LIMITS: '{"free":100000}', OPENPRACTICE_WORKER_POLL_MS: "50" },
        { engine },
      );
      const admin = await rt.token({ scope: "admin read write" });
      ids.clinic = (await post("/v2/clinics", { name: "Lakeview", time_zone: "America/Chicago" })).body.id;
      const doctor = await post("/apis/v1/doctor", {
        doctor_id: DOCTOR,
        first_name: "Ada",
        last_name: "Adams",
        clinic_ids: [Number(ids.clinic)],
      });
      ids.provider = String(doctor.body.data.provider_id);
      const shift = await post(`/v2/providers/${ids.provider}/schedules`, {
        clinic_id: ids.clinic,
        weekdays: ["MO", "TU", "WE", "TH", "FR", "SA", "SU"],
        start_time: "09:00",
        end_time: "17:00",
        effective_from: chicagoDate(0),
      });
      expect(shift.status).toBe(201);
      const type = await rt.call("POST", "/v2/appointment-types", {
        token: admin,
        body: { name: "Follow-up", type: "IN_PERSON", duration_minutes: 30 },
      });
      ids.type = (await type.json()).id;
      ids.patient = (
        await post("/v2/patients", { first_name: "Wes", last_name: "Wait", date_of_birth: "1980-01-01" })
      ).body.id;
    });
    afterAll(() => rt?.stop());

    it("a weekly lunch: created, one occurrence moved, the series split; slots follow each step across the spring change", async () => {
      const created = await post(`/apis/v1/doctor/${DOCTOR}/blocks`, {
        start: "2031-03-05T12:00:00-06:00",
        end: "2031-03-05T13:00:00-06:00",
        reason: "Lunch",
        time_zone: "America/Chicago",
        rrule: "FREQ=WEEKLY;BYDAY=WE;COUNT=8",
      });
      expect(created.status).toBe(200);
      const block = created.body.data.block;
      expect(block).toMatchObject({
        doctor_id: DOCTOR,
        series_id: block.block_id,
        rrule: "FREQ=WEEKLY;BYDAY=WE;COUNT=8",
      });
      // 12:00 local before and after the clocks go forward on Sunday 2031-03-09.
      expect(await noon("2031-03-05")).toEqual(["11:00", "11:30", "13:00", "13:30"]);
      expect(await noon("2031-03-12")).toEqual(["11:00", "11:30", "13:00", "13:30"]);
      const listed = await get(`/apis/v1/blocks?doctor_id=${DOCTOR}&from=2031-03-01T00:00:00Z&to=2031-03-20T00:00:00Z`);
      expect(
        listed.body.data.map((o: { occurrence_date: string; start: string }) => `${o.occurrence_date} ${o.start}`),
      ).toEqual(["2031-03-05 2031-03-05T18:00:00", "2031-03-12 2031-03-12T17:00:00", "2031-03-19 2031-03-19T17:00:00"]);

      // modify-block on one occurrence: it becomes an exception, 13:00-14:00.
      const moved = await post(`/apis/v1/blocks/${block.block_id}/modify`, {
        scope: "this",
        occurrence_date: "2031-03-12",
        start_time: "13:00",
        end_time: "14:00",
      });
      expect(moved.status).toBe(200);
      expect(moved.body.data.block.exceptions).toEqual([
        {
          occurrence_date: "2031-03-12",
          kind: "modified",
          start: "2031-03-12T18:00:00",
          end: "2031-03-12T19:00:00",
          reason: null,
        },
      ]);
      expect(await noon("2031-03-12")).toEqual(["11:00", "11:30", "12:00", "12:30"]);
      expect(await noon("2031-03-19")).toEqual(["11:00", "11:30", "13:00", "13:30"]);

      // this_and_following from 2031-03-26: the old series ends, a new one (same series id) runs 12:30-13:30.
      const split = await post(`/apis/v1/blocks/${block.block_id}/modify`, {
        scope: "this_and_following",
        occurrence_date: "2031-03-26",
        start_time: "12:30",
        end_time: "13:30",
      });
      expect(split.status).toBe(200);
      expect(split.body.data.block.rrule).toBe("FREQ=WEEKLY;BYDAY=WE;COUNT=3");
      expect(split.body.data.created_block).toMatchObject({
        series_id: block.block_id,
        rrule: "FREQ=WEEKLY;BYDAY=WE;COUNT=5",
        start: "2031-03-26T17:30:00",
      });
      expect(await noon("2031-03-19")).toEqual(["11:00", "11:30", "13:00", "13:30"]);
      expect(await noon("2031-03-26")).toEqual(["11:00", "11:30", "12:00", "13:30"]);
      expect(await noon("2031-04-23")).toEqual(["11:00", "11:30", "12:00", "13:30"]);
      expect(await noon("2031-04-30")).toEqual(ALL);
      const series = await get(
        `/apis/v1/blocks?clinic_id=${ids.clinic}&from=2031-03-18T00:00:00Z&to=2031-04-03T00:00:00Z`,
      );
      expect(
        series.body.data.map((o: { series_id: number; occurrence_date: string }) => [o.series_id, o.occurrence_date]),
      ).toEqual([
        [block.block_id, "2031-03-19"],
        [block.block_id, "2031-03-26"],
        [block.block_id, "2031-04-02"],
      ]);

      // The whole (earlier) series renamed: the moved occurrence keeps its times.
      await post(`/apis/v1/blocks/${block.block_id}/modify`, { scope: "all", reason: "Staff lunch" });
      expect(await noon("2031-03-12")).toEqual(["11:00", "11:30", "12:00", "12:30"]);

      // v2 reads the same block with its exceptions and series.
      const v2List = await get(
        `/v2/providers/${ids.provider}/blocks?from=2031-03-01T00:00:00Z&to=2031-05-01T00:00:00Z`,
      );
      const v2Block = v2List.body.data.find((b: { id: string }) => b.id === String(block.block_id));
      expect(v2Block).toMatchObject({
        series_id: String(block.block_id),
        exceptions: [{ occurrence_date: "2031-03-12", kind: "modified", start: "2031-03-12T18:00:00.000Z" }],
      });
      // The trail filtered by the operation's name finds each of its scoped forms.
      const byName = await rt.call("GET", "/v2/audit-events?action=v1ModifyBlock", {
        token: await rt.token({ scope: "admin read write" }),
      });
      expect(((await byName.json()).data as { action: string }[]).map((e) => e.action).sort()).toEqual([
        "v1ModifyBlock.all",
        "v1ModifyBlock.this",
        "v1ModifyBlock.this_and_following",
      ]);
      const audit = await rt.rawRows(
        "select action from audit_events where resource_type = 'provider_block' order by id",
      );
      expect(audit.map((a) => a.action)).toEqual([
        "v1CreateBlock",
        "v1ModifyBlock.this",
        "v1ModifyBlock.this_and_following",
        "v1ModifyBlock.all",
      ]);
    });

    it("a daily block keeps its wall-clock time through the autumn change, and deletes with each scope", async () => {
      const created = await post(`/apis/v1/doctor/${DOCTOR}/blocks`, {
        start: "2031-11-01T12:00:00-05:00",
        end: "2031-11-01T13:00:00-05:00",
        reason: "Huddle",
        time_zone: "America/Chicago",
        rrule: "FREQ=DAILY;COUNT=5",
      });
      const id = created.body.data.block.block_id;
      for (const day of ["2031-11-01", "2031-11-02", "2031-11-03"])
        expect(await noon(day)).toEqual(["11:00", "11:30", "13:00", "13:30"]);
      expect((await call("DELETE", `/apis/v1/blocks/${id}?scope=this&occurrence_date=2031-11-02`)).status).toBe(200);
      expect(await noon("2031-11-02")).toEqual(ALL);
      expect(
        (await call("DELETE", `/apis/v1/blocks/${id}?scope=this_and_following&occurrence_date=2031-11-04`)).body.data,
      ).toMatchObject({ rrule: "FREQ=DAILY;COUNT=3", removed_at: null });
      expect(await noon("2031-11-03")).toEqual(["11:00", "11:30", "13:00", "13:30"]);
      expect(await noon("2031-11-04")).toEqual(ALL);
      expect((await call("DELETE", `/apis/v1/blocks/${id}?scope=all`)).body.data.removed_at).toEqual(
        expect.any(String),
      );
      expect(await noon("2031-11-01")).toEqual(ALL);
      expect((await call("DELETE", `/apis/v1/blocks/${id}?scope=all`)).body.code).toBe(4066);
    });

    it("a deleted occurrence frees time the waitlist offers", async () => {
      const tomorrow = chicagoDate(1);
      const created = await post(`/apis/v1/doctor/${DOCTOR}/blocks`, {
        start: new Date(`${tomorrow}T12:00:00-06:00`).toISOString(),
        end: new Date(`${tomorrow}T13:00:00-06:00`).toISOString(),
        reason: "Lunch",
        time_zone: "America/Chicago",
        rrule: "FREQ=DAILY;COUNT=3",
      });
      expect(created.status).toBe(200);
      const occurrence = (
        await get(`/apis/v1/blocks?doctor_id=${DOCTOR}&from=${new Date().toISOString()}`)
      ).body.data.find((o: { block_id: number }) => o.block_id === created.body.data.block.block_id);
      const request = await post("/v2/waitlist-requests", {
        patient_id: ids.patient,
        provider_ids: [ids.provider],
        appointment_type_id: ids.type,
        time_windows: [{ start: "12:00", end: "13:00" }],
        earliest_date: chicagoDate(0),
        latest_date: chicagoDate(3),
        payment_mode: "SELF_PAY",
      });
      expect(request.status).toBe(201);
      const removed = await call(
        "DELETE",
        `/apis/v1/blocks/${created.body.data.block.block_id}?scope=this&occurrence_date=${occurrence.occurrence_date}`,
      );
      expect(removed.status).toBe(200);
      let offer: { start: string } | undefined;
      for (let i = 0; i < 300 && !offer; i++) {
        const r = await get(`/v2/waitlist-requests/${request.body.id}`);
        if (r.body.status === "offered") offer = r.body.offer;
        else await new Promise((resolve) => setTimeout(resolve, 50));
      }
      expect(offer?.start).toBe(new Date(`${occurrence.start}Z`).toISOString());
    });

    it("refuses a malformed or unbounded rrule, a bad scope, a date not in the series, an end before its start; nothing changes", async () => {
      const block = (
        await post(`/apis/v1/doctor/${DOCTOR}/blocks`, {
          start: "2031-06-04T12:00:00-05:00",
          end: "2031-06-04T13:00:00-05:00",
          reason: "Lunch",
          time_zone: "America/Chicago",
          rrule: "FREQ=WEEKLY;BYDAY=WE;COUNT=4",
        })
      ).body.data.block;
      const rows = async () => rt.rawRows("select * from provider_blocks order by id");
      const before = await rows();
      const audits = Number(await rt.scalar("select count(*) from audit_events"));
      const creates: [unknown, string][] = [
        [
          {
            start: "2031-06-04T12:00:00Z",
            end: "2031-06-04T13:00:00Z",
            reason: "x",
            time_zone: "America/Chicago",
            rrule: "FREQ=WEEKLY;BYDAY=WE",
          },
          "rrule",
        ],
        [
          {
            start: "2031-06-04T12:00:00Z",
            end: "2031-06-04T13:00:00Z",
            reason: "x",
            time_zone: "America/Chicago",
            rrule: "FREQ=SOMETIMES",
          },
          "rrule",
        ],
        [{ start: "2031-06-04T13:00:00Z", end: "2031-06-04T12:00:00Z", reason: "x" }, "end"],
      ];
      for (const [body, field] of creates) {
        const res = await post(`/apis/v1/doctor/${DOCTOR}/blocks`, body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(JSON.stringify(res.body)).toContain(field);
      }
      const edits: [unknown, string][] = [
        [{ scope: "everything", reason: "x" }, "scope"],
        [{ scope: "this", occurrence_date: "2031-06-05", reason: "x" }, "occurrence_date"],
        [{ scope: "this", reason: "x" }, "occurrence_date"],
        [{ scope: "this", occurrence_date: "2031-06-11", start_time: "14:00", end_time: "13:00" }, "end_time"],
        [{ scope: "all", start: "2031-06-04T12:00:00Z" }, "start"],
      ];
      for (const [body, field] of edits) {
        const res = await post(`/apis/v1/blocks/${block.block_id}/modify`, body);
        expect({ body, status: res.status }).toEqual({ body, status: 400 });
        expect(JSON.stringify(res.body)).toContain(field);
      }
      expect((await call("DELETE", `/apis/v1/blocks/${block.block_id}?scope=this`)).status).toBe(400);
      expect((await call("DELETE", `/apis/v1/blocks/${block.block_id}`)).status).toBe(400);
      expect((await post("/apis/v1/blocks/999999/modify", { reason: "x" })).body.code).toBe(4066);
      expect(
        (
          await post("/apis/v1/doctor/999999/blocks", {
            start: "2031-06-04T12:00:00Z",
            end: "2031-06-04T13:00:00Z",
            reason: "x",
          })
        ).body.code,
      ).toBe(4059);
      expect(await rows()).toEqual(before);
      expect(Number(await rt.scalar("select count(*) from audit_events"))).toBe(audits);
    });
  });
}
