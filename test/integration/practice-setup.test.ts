import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../cli/cli-process.js";
import { availableEngines } from "../support/engines.js";
import { oauthToken } from "../support/oauth.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

/**
 * docs/setup.md as a script: from an empty database, `openpractice org create` on the server's shell, then HTTP
 * only: the admin client's token sets up clinics, providers, staff, appointment types and a payer, makes a front
 * desk client with narrower scopes, whose token books an appointment and is refused a write outside its scopes;
 * the audit trail shows every step with its actor.
 */
for (const engine of availableEngines()) {
  describe(`[${engine}] a practice sets itself up over HTTP`, () => {
    let rt: TestRuntime;
    beforeAll(async () => {
      rt = await startTestRuntime({}, { engine });
    });
    afterAll(async () => {
      await rt.stop();
    });

    it("org create → admin token → directory → narrower client → booking → audit trail", async () => {
      expect(Number(await rt.scalar("select count(*) from organisations"))).toBe(0);
      const created = runCli(
        [
          "org",
          "create",
          "--name",
          "Lakeside Physical Therapy",
          "--plan",
          "professional",
          "--timezone",
          "America/Chicago",
        ],
        { DATABASE_URL: rt.databaseUrl, OPENPRACTICE_DATA_DIR: rt.dataDir, OPENPRACTICE_JWT_SECRET: "x".repeat(32) },
        rt.dataDir,
      );
      expect(created.stderr).toBe("");
      expect(created.status).toBe(0);
      const { organisation, admin_client } = JSON.parse(created.stdout);
      expect(organisation).toMatchObject({ name: "Lakeside Physical Therapy", plan: "professional", active: true });
      expect(admin_client).toMatchObject({ scopes: ["admin", "read", "write"], client_secret: expect.any(String) });

      const admin = await oauthToken(rt, { clientId: admin_client.client_id, secret: admin_client.client_secret });
      const as = (token: string) => async (method: string, path: string, body?: unknown) => {
        const res = await rt.call(method, path, { token, ...(body === undefined ? {} : { body }) });
        return { status: res.status, body: await res.json() };
      };
      const adminCall = as(admin);

      const clinic = await adminCall("POST", "/v2/clinics", {
        name: "Lakeside Main",
        time_zone: "America/Chicago",
        npi: "1234567893",
      });
      expect(clinic.status).toBe(201);
      const provider = await adminCall("POST", "/v2/providers", {
        user_id: "201",
        first_name: "Sam",
        last_name: "Ortiz",
        credentials: ["DPT"],
        clinic_ids: [clinic.body.id],
      });
      expect(provider.status).toBe(201);
      const staff = await adminCall("POST", "/v2/staff", {
        first_name: "Rosa",
        last_name: "Delgado",
        email: "rosa@lakeside.test",
        roles: ["front_desk"],
        clinic_ids: [clinic.body.id],
      });
      expect(staff.status).toBe(201);
      const type = await adminCall("POST", "/v2/appointment-types", {
        name: "Initial evaluation",
        type: "IN_PERSON",
        duration_minutes: 60,
      });
      expect(type.status).toBe(201);
      const payer = await adminCall("POST", "/v2/payers", {
        payer_id: "LOC01",
        name: "Local Health Plan",
        type: "commercial",
      });
      expect(payer.status).toBe(201);

      const desk = await adminCall("POST", "/v2/api-clients", {
        name: "Front desk app",
        scopes: ["patients:read", "patients:write", "appointments:read", "appointments:write"],
        clinic_ids: [clinic.body.id],
        user_id: "4501",
      });
      expect(desk.status).toBe(201);
      const deskToken = await oauthToken(rt, { clientId: desk.body.client_id, secret: desk.body.client_secret });
      const deskCall = as(deskToken);

      const patient = await deskCall("POST", "/v2/patients", {
        first_name: "Ada",
        last_name: "Lovelace",
        date_of_birth: "1980-12-10",
      });
      expect(patient.status).toBe(201);
      const start = Math.floor(Date.UTC(2031, 2, 3, 15) / 1000);
      const booked = await deskCall("POST", "/apis/v1/appointment", {
        doctor_id: 201,
        patient_id: Number(patient.body.id),
        clinic_id: Number(clinic.body.id),
        appointment_category: [Number(type.body.id)],
        timestamp: start,
        end_timestamp: start + 3600,
        payment_mode: "SELF_PAY",
      });
      expect(booked.status).toBe(200);
      const appointmentId = String(booked.body.data.appointment_id);

      const outside = await deskCall("POST", "/v2/staff", {
        first_name: "Not",
        last_name: "Allowed",
        email: "no@lakeside.test",
        roles: ["biller"],
      });
      expect(outside.status).toBe(403);
      expect(outside.body.error.code).toBe("INSUFFICIENT_PERMISSIONS");

      const trail = await adminCall("GET", "/v2/audit-events?per_page=200");
      expect(trail.status).toBe(200);
      const steps = [...trail.body.data]
        .reverse()
        .map((e: Record<string, any>) => [e.action, e.resource_type, e.resource_id, e.actor.client_id]);
      const adminId = admin_client.client_id;
      expect(steps).toEqual([
        ["cli.org.create", "organisation", organisation.id, null],
        ["oauthToken", "api_client", admin_client.id, adminId],
        ["v2CreateClinic", "clinic", clinic.body.id, adminId],
        ["v2CreateProvider", "provider", provider.body.id, adminId],
        ["v2CreateStaff", "staff", staff.body.id, adminId],
        ["v2CreateAppointmentType", "appointment_type", type.body.id, adminId],
        ["v2CreatePayer", "payer", expect.any(String), adminId],
        ["v2CreateApiClient", "api_client", desk.body.id, adminId],
        ["oauthToken", "api_client", desk.body.id, desk.body.client_id],
        ["v2CreatePatient", "patient", patient.body.id, desk.body.client_id],
        ["v1CreateAppointment", "appointment", appointmentId, desk.body.client_id],
      ]);
      // The refused write left no entry; the booking's entry names the client's user and the fields it sent.
      const booking = trail.body.data.find((e: Record<string, any>) => e.resource_type === "appointment");
      expect(booking.actor).toEqual({ user_id: "4501", name: "Front desk app", client_id: desk.body.client_id });
      expect(booking.changed_fields).toEqual([
        "appointment_category",
        "clinic_id",
        "doctor_id",
        "end_timestamp",
        "patient_id",
        "payment_mode",
        "timestamp",
      ]);
      // Names of fields, never their values: no patient data in the trail.
      expect(JSON.stringify(trail.body)).not.toContain("Lovelace");
    });
  });
}
