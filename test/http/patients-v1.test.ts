import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// The same HTTP suite on every engine this run has (SQLite; PostgreSQL and MariaDB in CI).
for (const engine of availableEngines()) {
  describe(`[${engine}]`, () => {
    let rt: TestRuntime;
    beforeAll(async () => {
      rt = await startTestRuntime({}, { engine });
    });
    afterAll(async () => {
      await rt.stop();
    });

    const ada = {
      first_name: "Ada",
      middle_name: "K",
      last_name: "Byron",
      date_of_birth: "1985-12-10",
      sex: "FEMALE",
      mobile: "(555) 010-7777",
      email_address: "Ada.Byron@Example.org",
      address: { line1: "12 Analytical Way", line2: "Unit 3", city: "Peoria", state: "IL", postal_code: "61602" },
    };

    describe("v1 patients over HTTP", () => {
      it("registers a patient in the v1 envelope and records patient.created in the same transaction", async () => {
        const res = await rt.call("POST", "/apis/v1/patient", { body: ada });
        expect(res.status).toBe(200);
        const body = await res.json();
        expect(body).toMatchObject({ code: 2000, message: "Success" });
        expect(body.data).toMatchObject({
          organisation_id: 1,
          first_name: "Ada",
          middle_name: "K",
          last_name: "Byron",
          date_of_birth: "1985-12-10",
          sex: "FEMALE",
          mobile: "(555) 010-7777",
          email_address: "ada.byron@example.org",
          address: {
            line1: "12 Analytical Way",
            line2: "Unit 3",
            city: "Peoria",
            state: "IL",
            postal_code: "61602",
            country: "US",
          },
          status: "ACTIVE",
        });
        expect(body.data.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/);
        const events = await rt.rawRows("select event_type, data from outbox where event_type = 'patient.created'");
        expect(events.map((e) => JSON.parse(String(e.data)))).toContainEqual({
          organisation_id: 1,
          patient_id: body.data.patient_id,
        });
      });

      it("answers a duplicate registration with 2301 and the existing record, writing nothing", async () => {
        const before = await rt.scalar("select count(*) n from outbox");
        const res = await rt.call("POST", "/apis/v1/patient", {
          body: { first_name: "ADA", last_name: " byron", date_of_birth: "1985-12-10", mobile: "555-000-0000" },
        });
        const body = await res.json();
        expect(res.status).toBe(200);
        expect(body.code).toBe(2301);
        expect(body.data).toMatchObject({ first_name: "Ada", mobile: "(555) 010-7777" });
        expect(await rt.scalar("select count(*) n from patients where identity_key = 'ada|byron|1985-12-10'")).toBe(1);
        expect(await rt.scalar("select count(*) n from outbox")).toBe(before);
      });

      it("reads a patient, and v1 and v2 are two views of the same record", async () => {
        const created = await (
          await rt.call("POST", "/apis/v1/patient", {
            body: {
              first_name: "Alan",
              last_name: "Turing",
              date_of_birth: "1912-06-23",
              sex: "MALE",
              mobile: "555-010-1234",
            },
          })
        ).json();
        const id = created.data.patient_id;
        const v1 = await (await rt.call("GET", `/apis/v1/patient/${id}`)).json();
        expect(v1).toEqual({ code: 2000, data: created.data, message: "Success" });
        const v2 = await (await rt.call("GET", `/v2/patients/${id}`)).json();
        expect(v2).toMatchObject({
          id: String(id),
          first_name: "Alan",
          last_name: "Turing",
          gender: "male",
          phone: "555-010-1234",
          date_of_birth: "1912-06-23",
          status: "active",
        });
        expect(v2.created_at).toBe(`${v1.data.created_at}${v2.created_at.slice(19)}`);
        expect(v2.created_at).toMatch(/Z$/);
      });

      it("updates partially, emits patient.updated, and an update that changes nothing emits nothing", async () => {
        const { data } = await (
          await rt.call("POST", "/apis/v1/patient", {
            body: { first_name: "Grace", last_name: "Hopper", date_of_birth: "1906-12-09" },
          })
        ).json();
        const res = await rt.call("POST", `/apis/v1/patient/${data.patient_id}`, {
          body: { mobile: "555-010-9999", status: "INACTIVE" },
        });
        const updated = await res.json();
        expect(updated).toMatchObject({
          code: 2000,
          data: { first_name: "Grace", mobile: "555-010-9999", status: "INACTIVE" },
        });
        const count = async () =>
          rt.scalar(
            "select count(*) n from outbox where event_type = 'patient.updated' and data like ?",
            `%"patient_id":${data.patient_id}}%`,
          );
        expect(await count()).toBe(1);
        await rt.call("POST", `/apis/v1/patient/${data.patient_id}`, { body: { mobile: "555-010-9999" } });
        expect(await count()).toBe(1);
      });

      it("refuses an update that would duplicate another patient, naming it, and changes nothing", async () => {
        const a = (
          await (
            await rt.call("POST", "/apis/v1/patient", {
              body: { first_name: "Katherine", last_name: "Johnson", date_of_birth: "1918-08-26" },
            })
          ).json()
        ).data;
        const b = (
          await (
            await rt.call("POST", "/apis/v1/patient", {
              body: { first_name: "Dorothy", last_name: "Vaughan", date_of_birth: "1918-08-26" },
            })
          ).json()
        ).data;
        const res = await rt.call("POST", `/apis/v1/patient/${b.patient_id}`, {
          body: { first_name: "Katherine", last_name: "Johnson" },
        });
        expect(res.status).toBe(409);
        expect(await res.json()).toMatchObject({ code: 4090, data: null, error_code: "DUPLICATE_PATIENT" });
        expect(await rt.scalar("select first_name from patients where id = ?", b.patient_id)).toBe("Dorothy");
        expect(a.patient_id).not.toBe(b.patient_id);
      });

      it("names every bad field in one v1 error and writes nothing", async () => {
        const before = await rt.scalar("select count(*) n from patients");
        const res = await rt.call("POST", "/apis/v1/patient", {
          body: {
            first_name: "",
            date_of_birth: "1990-02-30",
            sex: "male",
            mobile: 5550100,
            email_address: "not-an-email",
            address: { state: "Illinois", zip: "1" },
            clinic_id: "2",
            extra: true,
          },
        });
        expect(res.status).toBe(400);
        const body = await res.json();
        expect(body).toMatchObject({ code: 4000, data: null, error_code: "VALIDATION_FAILED" });
        expect(body.errors.map((e: { field: string }) => e.field).sort()).toEqual(
          [
            "address.state",
            "address.zip",
            "clinic_id",
            "date_of_birth",
            "email_address",
            "extra",
            "first_name",
            "last_name",
            "mobile",
            "sex",
          ].sort(),
        );
        expect(body.message).toContain("last_name: is required");
        expect(await rt.scalar("select count(*) n from patients")).toBe(before);
      });

      it("names unknown fields as sent, and says which v1 field a v2 name means", async () => {
        const before = await rt.scalar("select count(*) n from patients");
        const res = await rt.call("POST", "/apis/v1/patient", {
          body: {
            first_name: "Vee",
            last_name: "Two",
            date_of_birth: "1990-01-01",
            email: "vee@example.org",
            phone: "555-0100",
            gender: "female",
            address: { street: "1 Main St", zip_code: "61602" },
            nickname: "V",
          },
        });
        expect(res.status).toBe(400);
        const body = await res.json();
        expect(body.errors).toEqual([
          { field: "email", reason: "is not a known field (v1 uses email_address)" },
          { field: "phone", reason: "is not a known field (v1 uses mobile)" },
          { field: "gender", reason: "is not a known field (v1 uses sex)" },
          { field: "nickname", reason: "is not a known field" },
          { field: "address.street", reason: "is not a known field (v1 uses line1)" },
          { field: "address.zip_code", reason: "is not a known field (v1 uses postal_code)" },
        ]);
        expect(body.message).toContain(
          "email: is not a known field (v1 uses email_address); phone: is not a known field (v1 uses mobile); gender: is not a known field (v1 uses sex)",
        );
        expect(body.message).not.toContain("email_address:");
        const update = await rt.call(
          "POST",
          `/apis/v1/patient/${(await (await rt.call("POST", "/apis/v1/patient", { body: { first_name: "Vee", last_name: "One", date_of_birth: "1990-01-01" } })).json()).data.patient_id}`,
          { body: { email: "x@example.org" } },
        );
        expect((await update.json()).errors).toEqual([
          { field: "email", reason: "is not a known field (v1 uses email_address)" },
        ]);
        expect(await rt.scalar("select count(*) n from patients")).toBe(Number(before) + 1);
      });

      it("names domain-rule failures with v1 field names (a birth date in the future)", async () => {
        const res = await rt.call("POST", "/apis/v1/patient", {
          body: { first_name: "Future", last_name: "Kid", date_of_birth: "2999-01-01" },
        });
        const body = await res.json();
        expect(res.status).toBe(400);
        expect(body.errors).toEqual([
          { field: "date_of_birth", reason: "must not be in the future", value: "2999-01-01" },
        ]);
      });

      it("refuses a clinic of another organisation or none at all", async () => {
        const res = await rt.call("POST", "/apis/v1/patient", {
          body: { first_name: "No", last_name: "Clinic", date_of_birth: "1990-01-01", clinic_id: 999 },
        });
        expect(res.status).toBe(400);
        expect(await res.json()).toMatchObject({
          code: 4041,
          error_code: "CLINIC_NOT_FOUND",
          errors: [{ field: "clinic_id" }],
        });
      });

      it("answers 404 in the v1 envelope for unknown and malformed ids", async () => {
        for (const id of ["987654", "abc", "0", "-1"]) {
          const res = await rt.call("GET", `/apis/v1/patient/${id}`);
          expect(res.status).toBe(404);
          expect(await res.json()).toMatchObject({ code: 4040, data: null, error_code: "PATIENT_NOT_FOUND" });
        }
      });

      it("keeps organisations apart: another organisation's patient is 404, never its data", async () => {
        const { data } = await (
          await rt.call("POST", "/apis/v1/patient", {
            body: { first_name: "Private", last_name: "Person", date_of_birth: "1970-07-07" },
          })
        ).json();
        const other = await rt.token({ organisationId: 2 });
        for (const [method, path, body] of [
          ["GET", `/apis/v1/patient/${data.patient_id}`, undefined],
          ["POST", `/apis/v1/patient/${data.patient_id}`, { first_name: "Hijack" }],
          ["GET", `/v2/patients/${data.patient_id}`, undefined],
          ["PATCH", `/v2/patients/${data.patient_id}`, { first_name: "Hijack" }],
        ] as const) {
          const res = await rt.call(method, path, { token: other, body });
          expect(res.status).toBe(404);
          expect(JSON.stringify(await res.json())).not.toContain("Private");
        }
        expect(await rt.scalar("select first_name from patients where id = ?", data.patient_id)).toBe("Private");
        const list = await (await rt.call("GET", "/v2/patients?search=private", { token: other })).json();
        expect(list.data).toEqual([]);
      });
    });
  });
}
