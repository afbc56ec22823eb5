import {
  npiCheckDigit,
  type AppointmentCategory,
  type Clinic,
  type Practice,
  type Principal,
} from "@openpractice/core";
import { signAccessToken } from "../tokens.js";
import {
  DEMO_BILLING_CODES,
  DEMO_MODIFIERS,
  DEMO_CANCELLATION_REASONS,
  DEMO_CATEGORIES,
  DEMO_CLINICS,
  DEMO_DOCTORS,
  DEMO_ORGANISATION,
  DEMO_SPECIALIZATIONS,
  demoPatient,
} from "./demo-data.js";

export interface SeedSummary {
  organisation_id: number;
  clinic_ids: number[];
  provider_ids: number[];
  patient_ids: number[];
  appointment_category_ids: number[];
  appointment_ids: number[];
  billing_codes: string[];
  cancellation_reason_keys: string[];
  specializations: string[];
  /** A token (12 hours unless the maximum lifetime is shorter) for the first doctor; absent when the runtime has no HS256 secret (identity provider only). */
  token?: string;
}

/**
 * Creates the demo organisation and its reference data idempotently: every
 * write is insert-if-absent on a natural key, so a second run finds the same
 * rows and creates nothing.
 */
export async function seedDemo(
  practice: Practice,
  options: { organisationId: number; patients: number; jwtSecret: string | undefined; tokenTtlSeconds?: number },
): Promise<SeedSummary> {
  const orgId = options.organisationId;
  const now = practice.clock.now();
  const summary = await practice.storage.transaction(async (tx) => {
    await tx.organisations.ensure({ id: orgId, name: DEMO_ORGANISATION.name, plan: DEMO_ORGANISATION.plan, now });
    const clinics: Clinic[] = [];
    for (const c of DEMO_CLINICS)
      clinics.push(await tx.organisations.ensureClinic({ organisationId: orgId, name: c.name, timeZone: c.timeZone }));
    for (const d of DEMO_DOCTORS) {
      await tx.organisations.upsertProvider({
        organisationId: orgId,
        userId: d.userId,
        firstName: d.firstName,
        lastName: d.lastName,
        npi: `${d.npiStem}${npiCheckDigit(d.npiStem)}`,
        supervisingUserId: d.supervisor,
        clinicIds: d.clinics.map((i) => clinics[i]!.id),
      });
    }
    const categories: AppointmentCategory[] = [];
    for (const c of DEMO_CATEGORIES)
      categories.push(await tx.catalog.ensureAppointmentCategory({ organisationId: orgId, ...c }));
    for (const r of DEMO_CANCELLATION_REASONS)
      await tx.catalog.ensureCancellationReason({ organisationId: orgId, ...r, status: "ACTIVE" });
    for (const s of DEMO_SPECIALIZATIONS) await tx.catalog.enableSpecialization(orgId, s);
    return { clinicIds: clinics.map((c) => c.id), categoryIds: categories.map((c) => c.id) };
  });

  const first = DEMO_DOCTORS[0]!;
  const principal: Principal = {
    organisationId: orgId,
    userId: first.userId,
    name: `${first.firstName} ${first.lastName}`,
    scopes: ["read", "write"],
    clinicIds: summary.clinicIds,
    roles: ["provider"],
  };
  const patientIds: number[] = [];
  for (let i = 0; i < options.patients; i++) {
    const { patient } = await practice.patients.register(principal, {
      ...demoPatient(i),
      clinicId: summary.clinicIds[i % summary.clinicIds.length],
    });
    patientIds.push(patient.id);
  }

  // Upserting by code number: a second run replaces the same rows with the same values.
  await practice.billingCatalog.upsert(
    principal,
    DEMO_BILLING_CODES.map((c) => ({ ...c, modifiers: DEMO_MODIFIERS })),
  );
  const appointmentIds = await seedAppointments(practice, principal, {
    clinicIds: summary.clinicIds,
    categoryIds: summary.categoryIds,
    patientIds,
  });

  return {
    organisation_id: orgId,
    clinic_ids: summary.clinicIds,
    provider_ids: DEMO_DOCTORS.map((d) => d.userId),
    patient_ids: patientIds,
    appointment_category_ids: summary.categoryIds,
    appointment_ids: appointmentIds,
    billing_codes: DEMO_BILLING_CODES.map((c) => c.code),
    cancellation_reason_keys: DEMO_CANCELLATION_REASONS.map((r) => r.reasonKey),
    specializations: [...DEMO_SPECIALIZATIONS],
    ...(options.jwtSecret && {
      token: await signAccessToken(options.jwtSecret, {
        organisationId: orgId,
        userId: first.userId,
        name: principal.name ?? undefined,
        scope: "read write",
        // No clinic_id_list: the token works across the organisation (the examples add clinics and staff), where a
        // restricted one reaches its clinics only (docs/authentication.md, "Clinic restrictions").
        roles: ["provider"],
        ttlSeconds: options.tokenTtlSeconds,
      }),
    }),
  };
}

/**
 * Two days of bookings from tomorrow 09:00 UTC: each doctor sees a patient every
 * hour at their first clinic. When the organisation already has appointments
 * a second seed run books nothing and reports the ones there.
 */
async function seedAppointments(
  practice: Practice,
  principal: Principal,
  ref: { clinicIds: number[]; categoryIds: number[]; patientIds: number[] },
): Promise<number[]> {
  const existing = await practice.appointments.list(principal, { size: 100 });
  if (existing.total > 0) return existing.appointments.map((a) => a.id).sort((a, b) => a - b);
  if (ref.patientIds.length === 0) return [];
  const day = new Date(practice.clock.now());
  day.setUTCHours(0, 0, 0, 0);
  const ids: number[] = [];
  for (let slot = 0; slot < 12; slot++) {
    const doctor = DEMO_DOCTORS[slot % DEMO_DOCTORS.length]!;
    const dayOffset = 1 + Math.floor(slot / 6);
    const hour = 9 + (Math.floor(slot / DEMO_DOCTORS.length) % 3);
    const startsAt = new Date(day.getTime() + dayOffset * 86_400_000 + hour * 3_600_000);
    const { appointment } = await practice.appointments.book(principal, {
      patientId: ref.patientIds[slot % ref.patientIds.length]!,
      doctorId: doctor.userId,
      clinicId: ref.clinicIds[doctor.clinics[0]!]!,
      categoryIds: [ref.categoryIds[slot % 2]!],
      startsAt,
      endsAt: new Date(startsAt.getTime() + 45 * 60_000),
      paymentMode: slot % 3 === 0 ? "SELF_PAY" : "INSURANCE_PAY",
    });
    ids.push(appointment.id);
  }
  return ids;
}
