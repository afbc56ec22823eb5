import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// v1 doctors (issue 49, part 1) over HTTP on every engine this run has: the providers of /v2/providers keyed by
// doctor_id, written on one version and read on the other, with v2's rules and v1's envelope and error codes.
for (const engine of availableEngines()) {
  describe(`[${engine}] v1 doctors`, () => {
    let rt: TestRuntime;
    const ids = { clinic: 0, other: 0 };
    const call = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
      const text = await res.text();
      return { status: res.status, body: text ? JSON.parse(text) : undefined };
    };
    const post = (path: string, body?: unknown, token?: string) => call("POST", path, body, token);
    const get = (path: string, token?: string) => call("GET", path, undefined, token);
    const count = async (table: string) => Number(await rt.scalar(`select count(*) from ${table}`));

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      ids.clinic = Number((await post("/v2/clinics", { name: "North", time_zone: "America/Chicago" })).body.id);
      ids.other = Number((await post("/v2/clinics", { name: "South", time_zone: "America/Chicago" })).body.id);
    });
    afterAll(() => rt?.stop());

    it("creates on v1 and reads on v2, creates on v2 and reads and changes on v1", async () => {
      const created = await post("/apis/v1/doctor", {
        doctor_id: 201,
        first_name: "Sam",
        last_name: "Ortiz",
        npi: "1456789019",
        credentials: ["DPT"],
        licence_number: "PT-004211",
        licence_state: "IL",
        specialities: ["Vestibular"],
        clinic_ids: [ids.clinic],
      });
      expect(created.status).toBe(200);
      expect(created.body).toMatchObject({ code: 2000 });
      const doctor = created.body.data;
      expect(doctor).toMatchObject({
        doctor_id: 201,
        first_name: "Sam",
        npi: "1456789019",
        clinic_ids: [ids.clinic],
        supervising_physician_id: null,
        requires_cosign: false,
        active: true,
      });
      const onV2 = await get(`/v2/providers/${doctor.provider_id}`);
      expect(onV2.body).toMatchObject({
        user_id: "201",
        first_name: "Sam",
        npi: "1456789019",
        clinic_ids: [String(ids.clinic)],
      });
      expect((await get("/apis/v1/doctor/201")).body.data).toEqual(doctor);

      const v2 = await post("/v2/providers", {
        user_id: "202",
        first_name: "Pat",
        last_name: "Lee",
        clinic_ids: [String(ids.other)],
      });
      expect(v2.status).toBe(201);
      const changed = await post("/apis/v1/doctor/202", {
        supervising_physician_id: 201,
        requires_cosign: true,
        specialities: ["lymphedema"],
      });
      expect(changed.body.data).toMatchObject({ doctor_id: 202, supervising_physician_id: 201, requires_cosign: true });
      expect((await get(`/v2/providers/${v2.body.id}`)).body).toMatchObject({
        supervising_user_id: "201",
        requires_cosign: true,
        specialities: ["lymphedema"],
      });
      const events = await rt.rawRows("select event_type from outbox where event_type like 'provider.%' order by id");
      expect(events.map((e) => e.event_type)).toEqual(["provider.created", "provider.created", "provider.updated"]);
      const audit = await rt.rawRows("select action from audit_events where resource_type = 'provider' order by id");
      expect(audit.map((a) => a.action)).toEqual(expect.arrayContaining(["v1CreateDoctor", "v1UpdateDoctor"]));
    });

    it("lists by clinic, speciality and activity, by last name, paged", async () => {
      await post("/apis/v1/doctor", {
        doctor_id: 203,
        first_name: "Ana",
        last_name: "Abbot",
        clinic_ids: [ids.clinic],
      });
      await post("/apis/v1/doctor/203", { active: false });
      const names = async (q: string) =>
        (await get(`/apis/v1/doctors?${q}`)).body.data.doctors.map((d: { doctor_id: number }) => d.doctor_id);
      expect(await names("")).toEqual([202, 201]);
      expect(await names(`clinic_id=${ids.clinic}`)).toEqual([201]);
      expect(await names("speciality=VESTIBULAR")).toEqual([201]);
      expect(await names("active=false")).toEqual([203]);
      expect(await names("active=all")).toEqual([203, 202, 201]);
      const page = await get("/apis/v1/doctors?active=all&size=1&page=2");
      expect(page.body.data.pagination).toMatchObject({ page: 2, size: 1, total_count: 3, has_next: true });
      expect((await get("/apis/v1/doctors?active=maybe")).status).toBe(400);
    });

    it("refuses bad input naming the field and changes nothing", async () => {
      const before = await Promise.all(["providers", "outbox", "audit_events"].map(count));
      const cases: [unknown, number, number, string][] = [
        [{ doctor_id: 210, first_name: "X", last_name: "Y", npi: "1456789018" }, 400, 4000, "npi"],
        [{ doctor_id: 201, first_name: "X", last_name: "Y" }, 409, 4086, "user_id"],
        [{ doctor_id: 211, first_name: "X", last_name: "Y", npi: "1456789019" }, 409, 4086, "npi"],
        [
          { doctor_id: 212, first_name: "X", last_name: "Y", supervising_physician_id: 999 },
          400,
          4000,
          "supervising_physician_id",
        ],
        [{ doctor_id: 213, first_name: "X", last_name: "Y", requires_cosign: true }, 400, 4000, "requires_cosign"],
        [{ doctor_id: 214, first_name: "X", last_name: "Y", clinic_ids: [987654] }, 400, 4000, "clinic_ids.0"],
        [{ doctor_id: 215, first_name: "", last_name: "Y" }, 400, 4000, "first_name"],
        [{ first_name: "X", last_name: "Y" }, 400, 4000, "doctor_id"],
      ];
      for (const [body, status, code, field] of cases) {
        const res = await post("/apis/v1/doctor", body);
        expect({ body, status: res.status, code: res.body.code }).toEqual({ body, status, code });
        expect(JSON.stringify(res.body)).toContain(field);
      }
      expect((await post("/apis/v1/doctor/201", { supervising_physician_id: 201 })).status).toBe(400);
      expect((await post("/apis/v1/doctor/201", { doctor_id: 5 })).status).toBe(400);
      expect((await get("/apis/v1/doctor/999999")).body).toMatchObject({ code: 4059, details: { doctor_id: 999999 } });
      expect((await post("/apis/v1/doctor/999999", { first_name: "Z" })).body.code).toBe(4059);
      // Another organisation's doctor is unknown here.
      expect((await get("/apis/v1/doctor/201", await rt.token({ organisationId: 2 }))).body.code).toBe(4059);
      // A token restricted to one clinic cannot add a doctor of another.
      const restricted = await rt.token({ clinicIds: [ids.other] });
      const refused = await post(
        "/apis/v1/doctor",
        { doctor_id: 216, first_name: "X", last_name: "Y", clinic_ids: [ids.clinic] },
        restricted,
      );
      expect(refused.status).toBe(403);
      expect(await Promise.all(["providers", "outbox", "audit_events"].map(count))).toEqual(before);
    });
  });
}
