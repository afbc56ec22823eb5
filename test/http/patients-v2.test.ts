import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

// The same HTTP suite on every engine this run has (SQLite; PostgreSQL and MariaDB in CI).
for (const engine of availableEngines()) {
  describe(`[${engine}]`, () => {
    let rt: TestRuntime;
    const ids: Record<string, string> = {};

    const people = [
      {
        first_name: "Ada",
        last_name: "Byron",
        date_of_birth: "1985-12-10",
        email: "ada@analytical.org",
        phone: "(555) 010-0001",
        gender: "female",
      },
      {
        first_name: "Alan",
        last_name: "Turing",
        date_of_birth: "1912-06-23",
        email: "alan@bletchley.uk",
        phone: "555-010-0002",
        gender: "male",
      },
      {
        first_name: "Grace",
        last_name: "Hopper",
        date_of_birth: "1906-12-09",
        email: "grace@navy.mil",
        phone: "555 010 0003",
        gender: "female",
        status: "inactive",
      },
      {
        first_name: "Édith",
        last_name: "Piaf",
        date_of_birth: "1915-12-19",
        email: "edith@chanson.fr",
        gender: "female",
      },
      {
        first_name: "Adam",
        last_name: "Byrd",
        date_of_birth: "1990-03-03",
        gender: "male",
        insurance: { provider: "Acme Health", policy_number: "P-77", group_number: null },
      },
    ];

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      for (const p of people) {
        const res = await rt.call("POST", "/v2/patients", { body: p });
        expect(res.status).toBe(201);
        const body = await res.json();
        expect(res.headers.get("location")).toBe(`/v2/patients/${body.id}`);
        ids[p.first_name] = body.id;
        await new Promise((r) => setTimeout(r, 5)); // distinct created_at values
      }
    });
    afterAll(async () => {
      await rt.stop();
    });

    const list = async (query: string, token?: string) => {
      const res = await rt.call("GET", `/v2/patients${query}`, token ? { token } : {});
      return { res, body: await res.json() };
    };
    const firstNames = (body: { data: { first_name: string }[] }) => body.data.map((p) => p.first_name);

    describe("a search count limit of 2 (OPENPRACTICE_SEARCH_COUNT_LIMIT)", () => {
      let bounded: TestRuntime;
      beforeAll(async () => {
        bounded = await startTestRuntime(
          { OPENPRACTICE_PLAN_LIMITS: '{"free":100000}', OPENPRACTICE_SEARCH_COUNT_LIMIT: "2" },
          { shareDatabaseOf: rt },
        );
      });
      afterAll(async () => {
        await bounded.stop();
      });
      const boundedList = async (query: string) => (await bounded.call("GET", `/v2/patients${query}`)).json();

      it("reports the limit as a lower bound, with total_count_exact false, and pages past it", async () => {
        // "a" matches the four active patients.
        const first = await boundedList("?search=a&per_page=1&sort=first_name&order=asc");
        expect(firstNames(first)).toEqual(["Ada"]);
        expect(first.pagination).toMatchObject({
          total_count: 2,
          total_count_exact: false,
          total_pages: 2,
          has_next: true,
          next_page: 2,
        });
        const third = await boundedList("?search=a&per_page=1&page=3&sort=first_name&order=asc");
        expect(firstNames(third)).toEqual(["Alan"]);
        expect(third.pagination).toMatchObject({
          current_page: 3,
          total_count: 2,
          total_count_exact: false,
          total_pages: 4,
          has_next: true,
          next_page: 4,
        });
        const last = await boundedList("?search=a&per_page=1&page=4&sort=first_name&order=asc");
        expect(firstNames(last)).toEqual(["Édith"]);
        expect(last.pagination).toMatchObject({ total_pages: 4, has_next: false, next_page: null, previous_page: 3 });
      });

      it("counts exactly at or under the limit and for lists without a search", async () => {
        expect((await boundedList("?search=byr")).pagination).toMatchObject({
          total_count: 2,
          total_count_exact: true,
        });
        expect((await boundedList("")).pagination).toMatchObject({ total_count: 4, total_count_exact: true });
      });
    });

    describe("v2 patients over HTTP", () => {
      it("lists active patients newest first with the pagination object and meta", async () => {
        const { res, body } = await list("");
        expect(res.status).toBe(200);
        expect(firstNames(body)).toEqual(["Adam", "Édith", "Alan", "Ada"]);
        expect(body.pagination).toEqual({
          current_page: 1,
          total_pages: 1,
          total_count: 4,
          total_count_exact: true,
          per_page: 25,
          has_next: false,
          has_previous: false,
          next_page: null,
          previous_page: null,
        });
        expect(body.meta).toMatchObject({
          api_version: "2.0-beta",
          request_id: expect.stringMatching(/^req_/),
          timestamp: expect.stringMatching(/Z$/),
        });
        expect(res.headers.get("x-request-id")).toBe(body.meta.request_id);
        expect(body.data[0]).toMatchObject({
          id: ids.Adam,
          gender: "male",
          status: "active",
          address: { street: null, country: "US" },
          emergency_contact: { name: null },
        });
      });

      it("counts a search exactly below the search count limit", async () => {
        const { body } = await list("?search=a");
        expect(body.pagination).toMatchObject({
          total_count: 4,
          total_count_exact: true,
          total_pages: 1,
          has_next: false,
        });
      });

      it("pages with page and per_page", async () => {
        const { body } = await list("?per_page=2&page=2&sort=first_name&order=asc");
        expect(firstNames(body)).toEqual(["Alan", "Édith"]);
        expect(body.pagination).toEqual({
          current_page: 2,
          total_pages: 2,
          total_count: 4,
          total_count_exact: true,
          per_page: 2,
          has_next: false,
          has_previous: true,
          next_page: null,
          previous_page: 1,
        });
        const first = await list("?per_page=2&page=1&sort=first_name&order=asc");
        expect(first.body.pagination).toMatchObject({ has_next: true, next_page: 2, previous_page: null });
      });

      it("searches name, email and phone; every word must match", async () => {
        expect(firstNames((await list("?search=byr")).body)).toEqual(["Adam", "Ada"]);
        expect(firstNames((await list("?search=ada%20byron")).body)).toEqual(["Ada"]);
        expect(firstNames((await list("?search=edith")).body)).toEqual(["Édith"]);
        expect(firstNames((await list("?search=bletchley")).body)).toEqual(["Alan"]);
        expect(firstNames((await list("?search=555-010-0001")).body)).toEqual(["Ada"]);
        expect(firstNames((await list("?search=0100003&status=all")).body)).toEqual(["Grace"]);
      });

      it("filters by status", async () => {
        expect(firstNames((await list("?status=inactive")).body)).toEqual(["Grace"]);
        expect((await list("?status=all")).body.pagination.total_count).toBe(5);
      });

      it("filters by created and updated bounds (date-times with zones and dates)", async () => {
        const alan = (await (await rt.call("GET", `/v2/patients/${ids.Alan}`)).json()).created_at as string;
        expect(
          firstNames((await list(`?created_after=${encodeURIComponent(alan)}&sort=created_at&order=asc`)).body),
        ).toEqual(["Alan", "Édith", "Adam"]);
        expect(firstNames((await list(`?created_before=${encodeURIComponent(alan)}`)).body)).toEqual(["Ada"]);
        const today = new Date().toISOString().slice(0, 10);
        expect((await list(`?updated_after=${today}&updated_before=2999-01-01`)).body.pagination.total_count).toBe(4);
        expect((await list(`?created_before=${today}`)).body.data).toEqual([]);
      });

      it("projects fields (id always) and expands", async () => {
        const { body } = await list("?fields=first_name,email&search=ada%20byron");
        expect(body.data).toEqual([{ id: ids.Ada, first_name: "Ada", email: "ada@analytical.org" }]);
        const expanded = await list("?search=adam&expand=insurance,appointments,medical_records&fields=last_name");
        expect(expanded.body.data).toEqual([
          {
            id: ids.Adam,
            last_name: "Byrd",
            insurance: [{ provider: "Acme Health", policy_number: "P-77", group_number: null }],
            appointments: [],
            medical_records: [],
          },
        ]);
        const one = await (await rt.call("GET", `/v2/patients/${ids.Ada}?expand=insurance&fields=first_name`)).json();
        expect(one).toEqual({ id: ids.Ada, first_name: "Ada", insurance: [] });
      });

      it.each([
        ["per_page=0", "per_page", "0", "must be between 1 and 100"],
        ["per_page=101", "per_page", "101", "must be between 1 and 100"],
        ["per_page=abc", "per_page", "abc", "must be of type integer"],
        ["page=0", "page", "0", "must be between 1 and 2147483647"],
        ["page=1.5", "page", "1.5", "must be of type integer"],
        ["sort=age", "sort", "age", "must be one of created_at, updated_at, last_name, first_name"],
        ["order=sideways", "order", "sideways", "must be one of asc, desc"],
        ["status=deleted", "status", "deleted", "must be one of active, inactive, all"],
        ["fields=first_name,ssn", "fields", "first_name,ssn", "must be a comma-separated list of patient fields"],
        [
          "expand=billing",
          "expand",
          "billing",
          "must be a comma-separated list of medical_records, appointments, insurance",
        ],
        [
          "created_after=last-week",
          "created_after",
          "last-week",
          "must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone",
        ],
        [
          "created_after=2026-02-30",
          "created_after",
          "2026-02-30",
          "must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone",
        ],
        [
          "updated_before=2026-01-01T10:00:00",
          "updated_before",
          "2026-01-01T10:00:00",
          "must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone",
        ],
        [
          "created_after=2026-02-01&created_before=2026-01-01",
          "created_after",
          "2026-02-01",
          "must not be later than created_before",
        ],
        ["perpage=5", "perpage", "5", "is not a known parameter"],
        ["page=1&page=2", "page", ["1", "2"], "must be given once"],
      ])("refuses ?%s with INVALID_PARAMETER naming %s", async (query, parameter, value, reason) => {
        const { res, body } = await list(`?${query}`);
        expect(res.status).toBe(400);
        expect(body).toEqual({
          error: {
            code: "INVALID_PARAMETER",
            message: expect.stringContaining(parameter),
            details: { parameter, value, reason },
          },
          meta: { timestamp: expect.any(String), request_id: expect.stringMatching(/^req_/) },
        });
      });

      it("answers a duplicate POST with 409 naming the existing patient, writing nothing", async () => {
        const before = await rt.scalar("select count(*) n from outbox");
        const res = await rt.call("POST", "/v2/patients", {
          body: { first_name: "ada", last_name: "BYRON", date_of_birth: "1985-12-10" },
        });
        expect(res.status).toBe(409);
        expect((await res.json()).error).toMatchObject({
          code: "DUPLICATE_PATIENT",
          details: { existing_patient_id: ids.Ada },
        });
        expect(await rt.scalar("select count(*) n from outbox")).toBe(before);
      });

      it("validates bodies with v2 field names and writes nothing", async () => {
        const before = await rt.scalar("select count(*) n from patients");
        const res = await rt.call("POST", "/v2/patients", {
          body: {
            first_name: "X",
            last_name: "Y",
            date_of_birth: "2999-01-01",
            gender: "MALE",
            address: { zip_code: "!" },
            emergency_contact: { phone: "1" },
          },
        });
        expect(res.status).toBe(400);
        const body = await res.json();
        expect(body.error.code).toBe("VALIDATION_FAILED");
        expect(body.error.details.errors.map((e: { field: string }) => e.field)).toEqual([
          "gender",
          "address.zip_code",
        ]);
        const domain = await rt.call("POST", "/v2/patients", {
          body: { first_name: "X", last_name: "Y", date_of_birth: "2999-01-01", emergency_contact: { phone: "1" } },
        });
        expect((await domain.json()).error.details.errors).toEqual([
          { field: "date_of_birth", reason: "must not be in the future", value: "2999-01-01" },
          { field: "emergency_contact.phone", reason: "must have between 7 and 15 digits", value: "1" },
        ]);
        expect(await rt.scalar("select count(*) n from patients")).toBe(before);
      });

      it("names unknown fields as sent, and says which v2 field a v1 name means", async () => {
        const res = await rt.call("POST", "/v2/patients", {
          body: {
            first_name: "Vee",
            last_name: "One",
            date_of_birth: "1990-01-01",
            sex: "FEMALE",
            mobile: "555-0100",
            email_address: "vee@example.org",
            address: { line1: "1 Main St", postal_code: "61602" },
          },
        });
        expect(res.status).toBe(400);
        const body = await res.json();
        expect(body.error.details.errors).toEqual([
          { field: "sex", reason: "is not a known field (v2 uses gender)" },
          { field: "mobile", reason: "is not a known field (v2 uses phone)" },
          { field: "email_address", reason: "is not a known field (v2 uses email)" },
          { field: "address.line1", reason: "is not a known field (v2 uses street)" },
          { field: "address.postal_code", reason: "is not a known field (v2 uses zip_code)" },
        ]);
        expect(body.error.message).toContain("sex: is not a known field (v2 uses gender)");
        expect(body.error.message).not.toContain("gender:");
      });

      it("PATCHes partially; street replaces both address lines", async () => {
        const res = await rt.call("PATCH", `/v2/patients/${ids.Alan}`, {
          body: { address: { street: "1 Hut Road", city: "Bletchley" }, gender: "other" },
        });
        expect(res.status).toBe(200);
        expect(await res.json()).toMatchObject({
          id: ids.Alan,
          first_name: "Alan",
          gender: "other",
          address: { street: "1 Hut Road", city: "Bletchley" },
        });
        const v1 = await (await rt.call("GET", `/apis/v1/patient/${ids.Alan}`)).json();
        expect(v1.data).toMatchObject({
          sex: "OTHER",
          address: { line1: "1 Hut Road", line2: null, city: "Bletchley" },
        });
        const empty = await rt.call("PATCH", `/v2/patients/${ids.Alan}`, { body: {} });
        expect(empty.status).toBe(400);
        expect((await empty.json()).error.details.errors).toEqual([
          { field: "(body)", reason: "must contain at least one field", value: {} },
        ]);
      });

      it("needs patients:read or read to list; otherwise 403 with required and current scopes", async () => {
        const writer = await rt.token({ scope: "write appointments:read" });
        const { res, body } = await list("", writer);
        expect(res.status).toBe(403);
        expect(body.error).toEqual({
          code: "INSUFFICIENT_PERMISSIONS",
          message: expect.any(String),
          details: {
            required_scope: "patients:read",
            accepted_scopes: ["patients:read", "read"],
            current_scopes: ["write", "appointments:read"],
          },
        });
        expect((await list("", await rt.token({ scope: "patients:read" }))).res.status).toBe(200);
        const noWrite = await rt.call("POST", "/v2/patients", {
          token: await rt.token({ scope: "read" }),
          body: people[0],
        });
        expect(noWrite.status).toBe(403);
      });

      it("answers 404 for an unknown patient and unknown v2 routes in the v2 shape", async () => {
        const res = await rt.call("GET", "/v2/patients/424242");
        expect(res.status).toBe(404);
        expect((await res.json()).error.code).toBe("PATIENT_NOT_FOUND");
        const route = await rt.call("GET", "/v2/nothing-here");
        expect(route.status).toBe(404);
        expect((await route.json()).error.code).toBe("ROUTE_NOT_FOUND");
        const method = await rt.call("DELETE", "/v2/patients");
        expect(method.status).toBe(405);
        expect(method.headers.get("allow")).toBe("GET, HEAD, POST");
      });
    });
  });
}
