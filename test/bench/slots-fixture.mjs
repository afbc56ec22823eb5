// The database of the slots benchmark (slots.bench.mjs), built through the library so every row is as the
// application writes it: providers with 12 months of working hours (one version replaced midway), a weekday lunch
// block each, and appointments filling 08:00-12:00 on weekdays. Also used to profile GET /v2/slots in process.
import { DateTime } from "luxon";
import { createPractice } from "@openpractice/core";
import { createSqliteStorage } from "@openpractice/sqlite";

export const ZONE = "America/New_York";

/** The database: through the library (so every row is as the application writes it), appointments in batches. */
export async function buildSlotsFixture(filename, { providers: PROVIDERS, appointments: APPOINTMENTS }) {
  const storage = await createSqliteStorage({ filename });
  const practice = createPractice({ storage, keys: { webhookSecretKey: "0".repeat(64), vapid: null } });
  const r = storage.repositories;
  const now = new Date();
  await r.organisations.ensure({ id: 1, name: "Bench clinic group", plan: "enterprise", now });
  const clinic = await r.organisations.ensureClinic({ organisationId: 1, name: "Main", timeZone: ZONE });
  const principal = { organisationId: 1, userId: 1, name: "Bench", scopes: ["admin"], clinicIds: [], roles: [] };
  const category = await r.catalog.ensureAppointmentCategory({
    organisationId: 1,
    name: "Visit",
    type: "IN_PERSON",
    durationMinutes: 30,
  });
  const patient = await practice.patients.register(principal, {
    firstName: "Bench",
    lastName: "Patient",
    dateOfBirth: "1980-01-01",
  });
  const patientId = patient.patient.id;
  const start = DateTime.now().setZone(ZONE).startOf("week").minus({ months: 6 });
  const midway = start.plus({ months: 6 });
  const providers = [];
  for (let i = 0; i < PROVIDERS; i++) {
    const p = await r.organisations.upsertProvider({
      organisationId: 1,
      userId: 1000 + i,
      firstName: "Provider",
      lastName: `No ${i}`,
      npi: null,
      supervisingUserId: null,
      clinicIds: [clinic.id],
    });
    providers.push(p);
    // Twelve months of hours: weekdays 08:00-18:00, replaced midway by 07:30-17:30.
    const first = await practice.schedules.create(principal, p.id, {
      clinicId: clinic.id,
      weekdays: ["MO", "TU", "WE", "TH", "FR"],
      startTime: "08:00",
      endTime: "18:00",
      effectiveFrom: start.toISODate(),
    });
    await practice.schedules.create(principal, p.id, {
      clinicId: clinic.id,
      weekdays: ["MO", "TU", "WE", "TH", "FR"],
      startTime: "07:30",
      endTime: "17:30",
      effectiveFrom: midway.toISODate(),
      effectiveUntil: start.plus({ months: 12 }).toISODate(),
      replacesId: first.id,
    });
    const lunch = start.set({ hour: 12 });
    await practice.blocks.create(principal, p.id, {
      startsAt: lunch.toJSDate(),
      endsAt: lunch.plus({ hours: 1 }).toJSDate(),
      reason: "Lunch",
      timeZone: ZONE,
      rrule: "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;COUNT=260",
    });
  }
  // Appointments: 30 minutes, spread over the year's weekdays, mornings, per provider in turn.
  const perDay = 8;
  let made = 0;
  for (let day = 0; made < APPOINTMENTS; day++) {
    const date = start.plus({ days: day });
    if (date.weekday > 5) continue;
    await storage.transaction(async (tx) => {
      for (const p of providers)
        for (let k = 0; k < perDay && made < APPOINTMENTS; k++, made++) {
          const startsAt = date
            .set({ hour: 8, minute: 0 })
            .plus({ minutes: 30 * k })
            .toJSDate();
          await tx.appointments.insert({
            organisationId: 1,
            patientId,
            doctorId: p.userId,
            clinicId: clinic.id,
            categoryIds: [category.id],
            startsAt,
            endsAt: new Date(startsAt.getTime() + 30 * 60_000),
            paymentMode: "SELF_PAY",
            serviceCaseId: null,
            teleHealthUrl: null,
            comments: null,
            appointmentNotes: null,
            status: "SCHEDULED",
            cancellation: null,
            createdBy: null,
            createdAt: now,
            updatedAt: now,
            version: 1,
          });
        }
    });
  }
  await storage.close();
  return { clinicId: clinic.id, providerIds: providers.map((p) => p.id), start };
}
