import type { TestRuntime } from "./runtime-fixture.js";

/**
 * Books a 45-minute visit on the case through v1 (`POST /apis/v1/appointment`) two days from now, with a clinic, a
 * provider (user 101) and an appointment type made for it in organisation 1 (each ensured, so calling twice reuses
 * them). Answers the status and the body.
 */
export async function bookV1Visit(rt: TestRuntime, patientId: number, serviceCaseId: string) {
  const r = rt.runtime.practice.storage.repositories;
  const clinic = await r.organisations.ensureClinic({ organisationId: 1, name: "Main", timeZone: "UTC" });
  await r.organisations.upsertProvider({
    organisationId: 1,
    userId: 101,
    firstName: "Doc",
    lastName: "One",
    npi: null,
    supervisingUserId: null,
    clinicIds: [clinic.id],
  });
  const type = await r.catalog.ensureAppointmentCategory({
    organisationId: 1,
    name: "Visit",
    type: "IN_PERSON",
    durationMinutes: 45,
  });
  const start = Math.floor(Date.now() / 1000) + 86_400 * 2;
  const res = await rt.call("POST", "/apis/v1/appointment", {
    body: {
      doctor_id: 101,
      patient_id: patientId,
      clinic_id: clinic.id,
      appointment_category: [type.id],
      timestamp: start,
      end_timestamp: start + 45 * 60,
      payment_mode: "INSURANCE_PAY",
      service_case_id: serviceCaseId,
    },
  });
  return { status: res.status, body: await res.json() };
}
