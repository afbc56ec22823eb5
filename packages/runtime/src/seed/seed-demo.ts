import { npiCheckDigit, type AppointmentCategory, type Clinic, type Practice, type Principal } from "@openpractice/core";
import { signAccessToken } from "../tokens.js";
import { DEMO_CANCELLATION_REASONS, DEMO_CATEGORIES, DEMO_CLINICS, DEMO_DOCTORS, DEMO_ORGANISATION, DEMO_SPECIALIZATIONS, demoPatient } from "./demo-data.js";

export interface SeedSummary {
  organisation_id: number;
  clinic_ids: number[];
  provider_ids: number[];
  patient_ids: number[];
  appointment_category_ids: number[];
  cancellation_reason_keys: string[];
  specializations: string[];
  token: string;
}

/**
 * Creates the demo organisation and its reference data idempotently: every
 * write is insert-if-absent on a natural key, so a second run finds the same
 * rows and creates nothing.
 */
export async function seedDemo(practice: Practice, options: { organisationId: number; patients: number; jwtSecret: string }): Promise<SeedSummary> {
  const orgId = options.organisationId;
  const now = practice.clock.now();
  const summary = await practice.storage.transaction(async (tx) => {
    await tx.organisations.ensure({ id: orgId, name: DEMO_ORGANISATION.name, plan: DEMO_ORGANISATION.plan, now });
    const clinics: Clinic[] = [];
    for (const c of DEMO_CLINICS) clinics.push(await tx.organisations.ensureClinic({ organisationId: orgId, name: c.name, timeZone: c.timeZone }));
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
    for (const c of DEMO_CATEGORIES) categories.push(await tx.catalog.ensureAppointmentCategory({ organisationId: orgId, ...c }));
    for (const r of DEMO_CANCELLATION_REASONS) await tx.catalog.ensureCancellationReason({ organisationId: orgId, ...r, status: "ACTIVE" });
    for (const s of DEMO_SPECIALIZATIONS) await tx.catalog.enableSpecialization(orgId, s);
    return { clinicIds: clinics.map((c) => c.id), categoryIds: categories.map((c) => c.id) };
  });

  const first = DEMO_DOCTORS[0]!;
  const principal: Principal = { organisationId: orgId, userId: first.userId, name: `${first.firstName} ${first.lastName}`, scopes: ["read", "write"], clinicIds: summary.clinicIds, roles: ["provider"] };
  const patientIds: number[] = [];
  for (let i = 0; i < options.patients; i++) {
    const { patient } = await practice.patients.register(principal, { ...demoPatient(i), clinicId: summary.clinicIds[i % summary.clinicIds.length] });
    patientIds.push(patient.id);
  }

  return {
    organisation_id: orgId,
    clinic_ids: summary.clinicIds,
    provider_ids: DEMO_DOCTORS.map((d) => d.userId),
    patient_ids: patientIds,
    appointment_category_ids: summary.categoryIds,
    cancellation_reason_keys: DEMO_CANCELLATION_REASONS.map((r) => r.reasonKey),
    specializations: [...DEMO_SPECIALIZATIONS],
    token: await signAccessToken(options.jwtSecret, { organisationId: orgId, userId: first.userId, name: principal.name ?? undefined, scope: "read write", clinicIds: summary.clinicIds, roles: ["provider"] }),
  };
}
