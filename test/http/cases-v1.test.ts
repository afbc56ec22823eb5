import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

const BASE = "/apis/soap-enrichment/v1";
const HOUR = 3600;
const unix = (iso: string) => Math.floor(Date.parse(iso) / 1000);
const icd = (id: number, code: string) => ({ id, code, description: `code ${code}`, revision: "ICD10" });

// Cases, referring physicians, insurance cards, authorizations and visit tracking over HTTP, on every engine.
for (const engine of availableEngines()) {
  describe(`[${engine}] v1 cases over HTTP`, () => {
    let rt: TestRuntime;
    let otherOrg: string;
    const ids = {
      clinic: 0,
      otherClinic: 0,
      patient: 0,
      otherPatient: 0,
      foreignPatient: 0,
      category: 0,
      physician: 0,
      physician2: 0,
      card: 0,
      card2: 0,
    };

    const post = async (path: string, body?: unknown, token?: string) => {
      const res = await rt.call("POST", path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
      return { status: res.status, body: await res.json() };
    };
    const get = async (path: string, token?: string) => {
      const res = await rt.call("GET", path, token ? { token } : {});
      return { status: res.status, body: await res.json() };
    };
    const count = async (table: string) => Number(await rt.scalar(`select count(*) from ${table}`));
    const writesNothing = async (tables: string[], fn: () => Promise<void>) => {
      const before = await Promise.all(tables.map(count));
      await fn();
      expect(await Promise.all(tables.map(count))).toEqual(before);
    };
    const lastEvent = async (type: string) => {
      const [row] = await rt.rawRows(`select data from outbox where event_type = '${type}' order by id desc`);
      return row ? JSON.parse(String(row.data)) : undefined;
    };

    beforeAll(async () => {
      rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
      otherOrg = await rt.token({ organisationId: 2, userId: 201 });
      const r = rt.runtime.practice.storage.repositories;
      const now = new Date();
      await r.organisations.ensure({ id: 1, name: "Org one", plan: "free", now });
      await r.organisations.ensure({ id: 2, name: "Org two", plan: "free", now });
      ids.clinic = (
        await r.organisations.ensureClinic({ organisationId: 1, name: "Main", timeZone: "America/Chicago" })
      ).id;
      ids.otherClinic = (
        await r.organisations.ensureClinic({
          organisationId: 1,
          name: "Lenient",
          timeZone: "America/Chicago",
          visitLimitWarningOnly: true,
        })
      ).id;
      for (const [userId, clinics] of [
        [101, [ids.clinic, ids.otherClinic]],
        [102, [ids.clinic, ids.otherClinic]],
        [103, [ids.clinic]],
      ] as const) {
        await r.organisations.upsertProvider({
          organisationId: 1,
          userId,
          firstName: "Doc",
          lastName: String(userId),
          npi: null,
          supervisingUserId: null,
          clinicIds: [...clinics],
        });
      }
      ids.category = (
        await r.catalog.ensureAppointmentCategory({
          organisationId: 1,
          name: "Visit",
          type: "IN_PERSON",
          durationMinutes: 45,
        })
      ).id;
      await r.catalog.ensureCancellationReason({
        organisationId: 1,
        reasonKey: "ILL",
        reasonLabel: "Ill",
        cancellationFee: 0,
        status: "ACTIVE",
      });
      for (const s of ["MSK", "VESTIBULAR"]) await r.catalog.enableSpecialization(1, s);
      const patient = async (first_name: string, token?: string) =>
        (
          await (
            await rt.call("POST", "/apis/v1/patient", {
              body: { first_name, last_name: "Case", date_of_birth: "1975-04-04" },
              ...(token ? { token } : {}),
            })
          ).json()
        ).data.patient_id as number;
      ids.patient = await patient("Grace");
      ids.otherPatient = await patient("Linus");
      ids.foreignPatient = await patient("Foreign", otherOrg);
    });
    afterAll(async () => {
      await rt.stop();
    });

    describe("referring physicians and insurance cards", () => {
      it("creates, reads, updates and searches physicians; NPI needs its check digit and is unique", async () => {
        const created = await post(`${BASE}/referringPhysician`, {
          first_name: "Meredith",
          last_name: "Grey",
          npi: 1234567893,
          phone_number: 5550101234,
          fax_number: "555-010-9999",
          address1: "1 Main St",
          city: "Seattle",
          state: "WA",
          zip: "98101-1234",
        });
        expect(created.status).toBe(200);
        expect(created.body.data).toMatchObject({
          ref_physician_id: expect.any(Number),
          first_name: "Meredith",
          last_name: "Grey",
          npi: "1234567893",
          phone_number: "5550101234",
          zip: "98101-1234",
        });
        ids.physician = created.body.data.ref_physician_id;
        ids.physician2 = (
          await post(`${BASE}/referringPhysician`, { first_name: "Derek", last_name: "Shepherd", npi: null })
        ).body.data.ref_physician_id;
        expect((await get(`${BASE}/referringPhysician/${ids.physician}`)).body.data.last_name).toBe("Grey");
        const updated = await post(`${BASE}/referringPhysician/${ids.physician2}`, { city: "Boston", state: "MA" });
        expect(updated.body.data).toMatchObject({ first_name: "Derek", city: "Boston", state: "MA", npi: null });
        const byName = await get(`${BASE}/referringPhysician/search?q=grey`);
        expect(
          byName.body.data.referring_physicians.map((p: { ref_physician_id: number }) => p.ref_physician_id),
        ).toEqual([ids.physician]);
        expect((await get(`${BASE}/referringPhysician/search?q=123456`)).body.data.pagination).toMatchObject({
          total_count: 1,
        });
        expect((await get(`${BASE}/referringPhysician/search`)).body.data.pagination.total_count).toBe(2);

        await writesNothing(["referring_physicians"], async () => {
          const badNpi = await post(`${BASE}/referringPhysician`, {
            first_name: "A",
            last_name: "B",
            npi: "1234567890",
          });
          expect(badNpi.status).toBe(400);
          expect(badNpi.body.errors).toEqual([
            { field: "npi", reason: "must be 10 digits with a valid check digit", value: "1234567890" },
          ]);
          const dup = await post(`${BASE}/referringPhysician`, {
            first_name: "Other",
            last_name: "Person",
            npi: "1234567893",
          });
          expect(dup.status).toBe(409);
          expect(dup.body).toMatchObject({
            code: 4095,
            error_code: "DUPLICATE_REFERRING_PHYSICIAN",
            details: { existing_referring_physician_id: ids.physician },
          });
          expect((await post(`${BASE}/referringPhysician/${ids.physician2}`, { npi: "1234567893" })).status).toBe(409);
          expect(
            (await post(`${BASE}/referringPhysician`, { first_name: "A", last_name: "B", zip: "9810" })).body.errors[0]
              .field,
          ).toBe("zip");
          expect((await post(`${BASE}/referringPhysician`, { last_name: "B" })).body.errors[0]).toEqual({
            field: "first_name",
            reason: "is required",
          });
        });
        const foreign = await get(`${BASE}/referringPhysician/${ids.physician}`, otherOrg);
        expect(foreign.status).toBe(404);
        expect(foreign.body.code).toBe(4044);
      });

      it("adds and lists a patient's insurance cards; another organisation's patient is 404", async () => {
        const card = {
          insurance_payer: { payer_reg_id: 77, name: "Acme Health", payer_id: "ACME01" },
          insurance_number: "M-1001",
          plan_start_date: "2026-01-01",
          plan_end_date: "2026-12-31",
        };
        const added = await post(`/apis/v1/patient/${ids.patient}/insurance-cards`, card);
        expect(added.body.data).toEqual({ insurance_card_id: expect.any(Number), ...card });
        ids.card = added.body.data.insurance_card_id;
        ids.card2 = (
          await post(`/apis/v1/patient/${ids.patient}/insurance-cards`, {
            insurance_payer: { name: "Backup Mutual" },
            insurance_number: "B-2",
          })
        ).body.data.insurance_card_id;
        expect(
          (await get(`/apis/v1/patient/${ids.patient}/insurance-cards`)).body.data.map(
            (c: { insurance_card_id: number }) => c.insurance_card_id,
          ),
        ).toEqual([ids.card, ids.card2]);
        const bad = await post(`/apis/v1/patient/${ids.patient}/insurance-cards`, {
          insurance_payer: { name: "X" },
          insurance_number: "1",
          plan_start_date: "2026-05-01",
          plan_end_date: "2026-04-01",
        });
        expect(bad.body.errors).toEqual([expect.objectContaining({ field: "plan_end_date" })]);
        expect((await get(`/apis/v1/patient/${ids.foreignPatient}/insurance-cards`)).status).toBe(404);
      });
    });

    describe("cases", () => {
      let caseId = "";
      const fullCase = () => ({
        patient_id: ids.patient,
        case_title: "Left knee ACL rehab",
        specialization: "MSK",
        direct_access: false,
        referring_physician_details: {
          referring_physician_id: ids.physician,
          first_name: "Echo",
          last_name: "Ignored",
          npi: 1111111111,
        },
        secondary_referring_physician_details: { referring_physician_id: ids.physician2 },
        icd_codes: [icd(11, "S83.511A"), icd(12, "m25.562")],
        treating_icd_codes: [icd(12, "M25.562")],
        number_of_past_visits_for_this_case: 2,
        treatment_start_date: "2026-03-01",
        date_of_injury: "2026-02-14",
        date_of_surgery: null,
        insurance_card_list: [
          { insurance_card_id: ids.card, insurance_card_type: "PRIMARY", insurance_number: "ignored" },
          { insurance_card_id: ids.card2, insurance_card_type: "SECONDARY" },
        ],
        treatment_status: "ACTIVE",
        payment_mode: "INSURANCE_PAY",
        frequency_and_duration: "2x/week for 6 weeks",
        visit_track_required: false,
        case_visit_limit: 0,
        body_pain_notes: "pain 6/10 on stairs",
        affected_body_part_details: ["left knee"],
        clinic_id: ids.clinic,
        therapist_ids: [101, 102],
      });

      it("lists the organisation's specializations", async () => {
        expect((await get(`${BASE}/specializations`)).body.data).toEqual(["MSK", "VESTIBULAR"]);
      });

      it("creates a case with every parameter; physicians are resolved from the registry, cards copied; emits case.created", async () => {
        const { status, body } = await post(`${BASE}/patientCase`, fullCase());
        expect(status).toBe(200);
        const c = body.data;
        caseId = c.service_case_id;
        expect(c.service_case_id).toMatch(/^SERVICE_CASE_\d+$/);
        expect(c).toMatchObject({
          id: c.service_case_id.slice("SERVICE_CASE_".length),
          case_title: "Left knee ACL rehab",
          patient_id: ids.patient,
          specialization: "MSK",
          patient_case_identifier: {
            patient_id: ids.patient,
            case_title: "Left knee ACL rehab",
            treatment_status: "ACTIVE",
          },
          referring_physician_details: {
            ref_physician_id: ids.physician,
            first_name: "Meredith",
            last_name: "Grey",
            npi: "1234567893",
            phone_number: "5550101234",
            fax_number: "555-010-9999",
            address1: "1 Main St",
            city: "Seattle",
            state: "WA",
            zip: "98101-1234",
          },
          secondary_referring_physician_details: { ref_physician_id: ids.physician2, last_name: "Shepherd" },
          tertiary_referring_physician_details: null,
          // Codes are stored upper-case; descriptions as sent.
          icd_codes: [icd(11, "S83.511A"), { ...icd(12, "M25.562"), description: "code m25.562" }],
          treating_icd_codes: [icd(12, "M25.562")],
          insurance_card_list: [
            {
              insurance_card_id: ids.card,
              insurance_payer: { payer_reg_id: 77, name: "Acme Health", payer_id: "ACME01" },
              insurance_number: "M-1001",
              plan_start_date: "2026-01-01",
              plan_end_date: "2026-12-31",
              insurance_card_type: "PRIMARY",
            },
            { insurance_card_id: ids.card2, insurance_number: "B-2", insurance_card_type: "SECONDARY" },
          ],
          number_of_past_visits_for_this_case: 2,
          treatment_status: "ACTIVE",
          treatment_start_date: "2026-03-01",
          date_of_injury: "2026-02-14",
          date_of_surgery: null,
          direct_access: false,
          authorization_required: false,
          auth_required_status: "AUTH_NOT_REQUIRED",
          payment_mode: "INSURANCE_PAY",
          frequency_and_duration: "2x/week for 6 weeks",
          visit_track_required: false,
          case_visit_limit: 0,
          body_pain_notes: "pain 6/10 on stairs",
          affected_body_part_details: ["left knee"],
          organisation_id: 1,
          clinic_id: ids.clinic,
          therapist_ids: [101, 102],
          created_date: expect.stringMatching(/^\d{4}-\d{2}-\d{2}$/),
          created_at: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/),
        });
        expect(await lastEvent("case.created")).toEqual({
          organisation_id: 1,
          service_case_id: caseId,
          patient_id: ids.patient,
          clinic_id: ids.clinic,
        });
        expect((await get(`${BASE}/patientCase/${caseId}`)).body.data).toEqual(c);
        expect((await get(`${BASE}/patientCase/${c.id}`)).body.data.service_case_id).toBe(caseId);
        expect(
          (await get(`${BASE}/patientCase?patient_id=${ids.patient}`)).body.data.map(
            (x: { service_case_id: string }) => x.service_case_id,
          ),
        ).toContain(caseId);
      });

      it("refuses bad input naming the field (spec 7.4) and writes nothing", async () => {
        await writesNothing(["cases", "outbox"], async () => {
          const cases: Array<[Record<string, unknown>, number, string]> = [
            [{ specialization: "PEDIATRIC" }, 400, "specialization"],
            [
              { referring_physician_details: { referring_physician_id: 0 } },
              400,
              "referring_physician_details.referring_physician_id",
            ],
            [
              { referring_physician_details: { referring_physician_id: null } },
              400,
              "referring_physician_details.referring_physician_id",
            ],
            [{ icd_codes: [icd(0, "M25.562")] }, 400, "icd_codes.0.id"],
            [{ icd_codes: [{ id: null, code: "M25.562", revision: "ICD10" }] }, 400, "icd_codes.0.id"],
            [{ icd_codes: [{ id: 4, code: "M25.562", revision: "ICD9" }] }, 400, "icd_codes.0.revision"],
            [{ treating_icd_codes: [icd(4, "not-a-code")] }, 400, "treating_icd_codes.0.code"],
            [{ treatment_start_date: "2026-02-30" }, 400, "treatment_start_date"],
            [{ date_of_injury: "14/02/2026" }, 400, "date_of_injury"],
            [{ payment_mode: "BITCOIN" }, 400, "payment_mode"],
            [{ treatment_status: "PAUSED" }, 400, "treatment_status"],
            [{ insurance_card_list: [{ insurance_card_id: 1 }] }, 400, "insurance_card_list.0.insurance_card_type"],
            [{ case_title: "" }, 400, "case_title"],
            [{ case_visit_limit: -1 }, 400, "case_visit_limit"],
            [
              { referring_physician_details: { referring_physician_id: 999999 } },
              404,
              "referring_physician_details.referring_physician_id",
            ],
            [{ patient_id: ids.foreignPatient }, 404, "patient_id"],
          ];
          for (const [over, status, field] of cases) {
            const res = await post(`${BASE}/patientCase`, { ...fullCase(), ...over });
            expect(res.status, JSON.stringify(over)).toBe(status);
            expect(
              res.body.errors?.map((e: { field: string }) => e.field) ?? [res.body.details],
              JSON.stringify(over),
            ).toContain(field);
          }
          const otherPatientsCard = await post(`${BASE}/patientCase`, { ...fullCase(), patient_id: ids.otherPatient });
          expect(otherPatientsCard.body).toMatchObject({
            code: 4006,
            errors: [
              { field: "insurance_card_list.0.insurance_card_id" },
              { field: "insurance_card_list.1.insurance_card_id" },
            ],
          });
          const foreign = await post(`${BASE}/patientCase`, { ...fullCase(), patient_id: ids.patient }, otherOrg);
          expect(foreign.status).toBe(404);
        });
        expect((await get(`${BASE}/patientCase/${caseId}`, otherOrg)).status).toBe(404);
        expect((await get(`${BASE}/patientCase/SERVICE_CASE_abc`)).body.code).toBe(4043);
      });

      it("updates partially (omitted fields keep their values), emits case.updated, then case.discharged; a no-op emits nothing", async () => {
        const events = async () =>
          Number(await rt.scalar("select count(*) from outbox where event_type like 'case.%'"));
        const before = await events();
        const updated = await post(`${BASE}/patientCase/${caseId}`, {
          frequency_and_duration: "3x/week",
          icd_codes: [icd(13, "M17.12")],
          tertiary_referring_physician_details: { referring_physician_id: ids.physician },
        });
        expect(updated.body.data).toMatchObject({
          frequency_and_duration: "3x/week",
          case_title: "Left knee ACL rehab",
          icd_codes: [icd(13, "M17.12")],
          treating_icd_codes: [icd(12, "M25.562")],
          tertiary_referring_physician_details: { ref_physician_id: ids.physician },
          referring_physician_details: { ref_physician_id: ids.physician },
        });
        expect(await lastEvent("case.updated")).toEqual({
          organisation_id: 1,
          service_case_id: caseId,
          patient_id: ids.patient,
          clinic_id: ids.clinic,
        });
        await post(`${BASE}/patientCase/${caseId}`, { frequency_and_duration: "3x/week" });
        expect(await events()).toBe(before + 1);
        const discharged = await post(`${BASE}/patientCase/${caseId}`, { treatment_status: "DISCHARGED" });
        expect(discharged.body.data.patient_case_identifier.treatment_status).toBe("DISCHARGED");
        expect(await lastEvent("case.discharged")).toEqual({
          organisation_id: 1,
          service_case_id: caseId,
          patient_id: ids.patient,
          clinic_id: ids.clinic,
        });
        expect(await events()).toBe(before + 2);
        const bad = await post(`${BASE}/patientCase/${caseId}`, { specialization: "NEURO" });
        expect(bad.body.errors[0].field).toBe("specialization");
        expect((await post(`${BASE}/patientCase/${caseId}`, { patient_id: 5 })).body.errors[0]).toEqual({
          field: "patient_id",
          reason: "is not a known field",
        });
      });
    });

    describe("authorizations and visit tracking", () => {
      let trackedCase = "";
      let authId = 0;
      let hour = 0;
      /** Books a 45-minute visit on the case at a day of May 2031 (Chicago); each call gets its own hour. */
      const book = (day: string, over: Record<string, unknown> = {}) => {
        hour += 1;
        const start = unix(`${day}T${String(8 + (hour % 10)).padStart(2, "0")}:00:00-05:00`);
        return post("/apis/v1/appointment", {
          doctor_id: 101,
          patient_id: ids.otherPatient,
          clinic_id: ids.clinic,
          appointment_category: [ids.category],
          timestamp: start,
          end_timestamp: start + 45 * 60,
          payment_mode: "INSURANCE_PAY",
          service_case_id: trackedCase,
          ...over,
        });
      };

      beforeAll(async () => {
        const c = await post(`${BASE}/patientCase`, {
          patient_id: ids.otherPatient,
          case_title: "Vertigo",
          specialization: "VESTIBULAR",
          visit_track_required: true,
          case_visit_limit: 6,
          number_of_past_visits_for_this_case: 1,
          clinic_id: ids.clinic,
          payment_mode: "INSURANCE_PAY",
        });
        trackedCase = c.body.data.service_case_id;
        expect(c.body.data).toMatchObject({ authorization_required: true, auth_required_status: "AUTH_REQUIRED" });
      });

      it("creates, lists, reads, updates (lists replaced) and deletes authorizations; validates and scopes them", async () => {
        const created = await post(`${BASE}/authorization`, {
          service_case_id: trackedCase,
          reference_number: "AUTH-2031-A",
          payer_name: "Acme Health",
          payer_id: "ACME01",
          plan_start_date: "2031-01-01",
          plan_end_date: "2031-12-31",
          effective_start_date: "2031-05-01",
          effective_end_date: "2031-05-31",
          authorized_visits: 3,
          previously_consumed_visits: 1,
          icd_codes: [icd(21, "H81.10")],
          cpt_code_authorization_details: [{ cpt_code: "97112", authorized_units: 12 }],
        });
        expect(created.status).toBe(200);
        authId = created.body.data.authorization_id;
        expect(created.body.data).toMatchObject({
          service_case_id: trackedCase,
          patient_id: ids.otherPatient,
          status: "ACTIVE",
          authorized_visits: 3,
          previously_consumed_visits: 1,
          current_visits: 1,
          booked_visits: 0,
          remaining_visits: 2,
        });
        const updated = await post(`${BASE}/authorization/${authId}`, {
          cpt_code_authorization_details: [{ cpt_code: "97530", authorized_units: 8 }],
          payer_id: null,
        });
        expect(updated.body.data).toMatchObject({
          reference_number: "AUTH-2031-A",
          payer_id: null,
          cpt_code_authorization_details: [{ cpt_code: "97530", authorized_units: 8 }],
          icd_codes: [icd(21, "H81.10")],
        });
        expect(
          (await get(`${BASE}/authorization?service_case_id=${trackedCase}`)).body.data.map(
            (a: { authorization_id: number }) => a.authorization_id,
          ),
        ).toEqual([authId]);
        expect((await get(`${BASE}/authorization/${authId}`)).body.data.authorization_id).toBe(authId);
        expect(
          (await get(`${BASE}/authorization/search?patient_name=linus`)).body.data.authorizations.map(
            (a: { authorization_id: number }) => a.authorization_id,
          ),
        ).toEqual([authId]);
        expect(
          (await get(`${BASE}/authorization/search?reference_number=2031-a`)).body.data.pagination.total_count,
        ).toBe(1);
        expect((await get(`${BASE}/authorization/search?patient_name=grace`)).body.data.pagination.total_count).toBe(0);
        expect(
          (await get(`${BASE}/authorization/search?reference_number=AUTH`, otherOrg)).body.data.pagination.total_count,
        ).toBe(0);
        expect((await get(`${BASE}/authorization/${authId}`, otherOrg)).status).toBe(404);

        await writesNothing(["authorizations"], async () => {
          const backwards = await post(`${BASE}/authorization`, {
            service_case_id: trackedCase,
            reference_number: "X",
            payer_name: "P",
            effective_start_date: "2031-06-10",
            effective_end_date: "2031-06-01",
            authorized_visits: 2,
          });
          expect(backwards.body.errors).toEqual([expect.objectContaining({ field: "effective_end_date" })]);
          expect(
            (
              await post(`${BASE}/authorization`, {
                service_case_id: "SERVICE_CASE_999999",
                reference_number: "X",
                payer_name: "P",
                effective_start_date: "2031-06-01",
                effective_end_date: "2031-06-10",
                authorized_visits: 2,
              })
            ).status,
          ).toBe(404);
          expect((await post(`${BASE}/authorization/${authId}`, { authorized_visits: 0 })).body.errors[0].field).toBe(
            "authorized_visits",
          );
          expect(
            (await post(`${BASE}/authorization/${authId}`, { cpt_code_authorization_details: [{ cpt_code: "97530" }] }))
              .body.errors[0].field,
          ).toBe("cpt_code_authorization_details.0.authorized_units");
        });
        const temp = await post(`${BASE}/authorization`, {
          service_case_id: trackedCase,
          reference_number: "TEMP",
          payer_name: "P",
          effective_start_date: "2031-07-01",
          effective_end_date: "2031-07-31",
          authorized_visits: 2,
        });
        const tempId = temp.body.data.authorization_id;
        expect((await rt.call("DELETE", `${BASE}/authorization/${tempId}`)).status).toBe(200);
        expect((await get(`${BASE}/authorization/${tempId}`)).status).toBe(404);
        expect((await rt.call("DELETE", `${BASE}/authorization/${tempId}`)).status).toBe(404);
      });

      it("counts visits against the authorization and the case limit, says how many of how many, and refuses outside the window", async () => {
        expect((await book("2031-05-05")).status).toBe(200);
        const second = await book("2031-05-06");
        expect(second.body.data.warnings).toEqual([]);
        // 1 consumed before + 2 booked = 3 of 3 authorized visits.
        await writesNothing(["appointments", "outbox"], async () => {
          const full = await book("2031-05-07", { doctor_id: 102 });
          expect(full.status).toBe(409);
          expect(full.body).toMatchObject({
            code: 4093,
            error_code: "VISIT_LIMIT_REACHED",
            message: expect.stringContaining("3 of 3"),
            details: { scope: "authorization", authorization_id: authId, used: 1, booked: 2, limit: 3 },
          });
          const outside = await book("2031-06-02");
          expect(outside.status).toBe(409);
          expect(outside.body).toMatchObject({
            code: 4094,
            error_code: "NO_VALID_AUTHORIZATION",
            details: { visit_date: "2031-06-02" },
          });
        });
        // 23:30 in Chicago on 31 May is 1 June in UTC: the clinic's date decides, so this is inside the window (and full).
        const late = await post("/apis/v1/appointment", {
          doctor_id: 103,
          patient_id: ids.otherPatient,
          clinic_id: ids.clinic,
          appointment_category: [ids.category],
          timestamp: unix("2031-05-31T23:00:00-05:00"),
          end_timestamp: unix("2031-05-31T23:45:00-05:00"),
          payment_mode: "SELF_PAY",
          service_case_id: trackedCase,
        });
        expect(late.body.error_code).toBe("VISIT_LIMIT_REACHED");
        const readBack = (await get(`${BASE}/authorization/${authId}`)).body.data;
        expect(readBack).toMatchObject({ current_visits: 1, booked_visits: 2, remaining_visits: 0 });
      });

      it("a cancellation frees a visit; a clinic in warning mode books with the warning; the case limit counts past visits", async () => {
        const list = (await get(`/apis/v1/appointments?patient_id=${ids.otherPatient}&status=SCHEDULED`)).body.data
          .appointments;
        await post(`/apis/v1/appointment/appointment-cancel/${list[0].appointment_id}`, {
          cancellation_reason_key: "ILL",
          cancellation_reason_label: "Ill",
        });
        expect((await book("2031-05-08")).status).toBe(200);
        const warned = await book("2031-05-09", { clinic_id: ids.otherClinic });
        expect(warned.status).toBe(200);
        expect(warned.body.data.warnings).toEqual([
          expect.objectContaining({
            code: "VISIT_LIMIT_REACHED",
            details: expect.objectContaining({ scope: "authorization", limit: 3 }),
          }),
        ]);
        // A bigger authorization; the case limit (6, with 1 past visit) now binds: 1 + 3 booked + 2 more = 6.
        await post(`${BASE}/authorization/${authId}`, { authorized_visits: 20 });
        expect((await book("2031-05-12")).status).toBe(200);
        expect((await book("2031-05-13")).status).toBe(200);
        const caseFull = await book("2031-05-14");
        expect(caseFull.body).toMatchObject({
          error_code: "VISIT_LIMIT_REACHED",
          message: expect.stringContaining("6 of 6"),
          details: { scope: "case", used: 1, booked: 5, limit: 6 },
        });
        const c = (await get(`${BASE}/patientCase/${trackedCase}`)).body.data;
        expect(c).toMatchObject({ visits_used: 1, visits_booked: 5 });
      });

      it("two last-visit bookings at once: exactly one passes", async () => {
        await post(`${BASE}/patientCase/${trackedCase}`, { case_visit_limit: 7 });
        const body = (doctor: number, day: string) => {
          const start = unix(`${day}T10:00:00-05:00`);
          return {
            doctor_id: doctor,
            patient_id: ids.otherPatient,
            clinic_id: ids.clinic,
            appointment_category: [ids.category],
            timestamp: start,
            end_timestamp: start + 2700,
            payment_mode: "INSURANCE_PAY",
            service_case_id: trackedCase,
          };
        };
        const results = await Promise.all([
          rt.call("POST", "/apis/v1/appointment", { body: body(101, "2031-05-20") }),
          rt.call("POST", "/apis/v1/appointment", { body: body(102, "2031-05-21") }),
          rt.call("POST", "/apis/v1/appointment", { body: body(103, "2031-05-22") }),
        ]);
        const statuses = results.map((r) => r.status).sort();
        expect(statuses).toEqual([200, 409, 409]);
        const refused = await Promise.all(results.filter((r) => r.status === 409).map((r) => r.json()));
        expect(refused.map((b) => b.details)).toEqual([
          expect.objectContaining({ scope: "case", limit: 7 }),
          expect.objectContaining({ scope: "case", limit: 7 }),
        ]);
      });

      it("reports AUTH_EXPIRED once every authorization has ended, and refuses a discharged case or another patient's case", async () => {
        const c = await post(`${BASE}/patientCase`, {
          patient_id: ids.patient,
          case_title: "Old shoulder",
          specialization: "MSK",
          visit_track_required: true,
          clinic_id: ids.clinic,
        });
        const key = c.body.data.service_case_id;
        const old = await post(`${BASE}/authorization`, {
          service_case_id: key,
          reference_number: "OLD-1",
          payer_name: "P",
          effective_start_date: "2020-01-01",
          effective_end_date: "2020-03-31",
          authorized_visits: 10,
        });
        expect(old.body.data.status).toBe("EXPIRED");
        expect((await get(`${BASE}/patientCase/${key}`)).body.data.auth_required_status).toBe("AUTH_EXPIRED");
        const notTheirs = await book("2031-05-23", { service_case_id: key });
        expect(notTheirs.body).toMatchObject({
          code: 4006,
          errors: [{ field: "service_case_id", reason: "no such case for this patient" }],
        });
        await post(`${BASE}/patientCase/${key}`, { treatment_status: "DISCHARGED" });
        const discharged = await book("2031-05-23", { patient_id: ids.patient, service_case_id: key });
        expect(discharged.body).toMatchObject({
          code: 4000,
          errors: [{ field: "service_case_id", reason: "the case is DISCHARGED" }],
        });
      });
    });
  });
}
