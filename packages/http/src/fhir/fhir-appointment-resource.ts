import type { Appointment, AppointmentStatus, Practice, Principal, Provider } from "@openpractice/core";
import { scopePair } from "../define-route.js";
import type { FhirResource, FhirResourceType } from "./fhir-resource-type.js";
import { searchAppointments } from "./fhir-appointment-search.js";
import { compact } from "./fhir-values.js";

/** Our appointment statuses as FHIR AppointmentStatus (http://hl7.org/fhir/appointmentstatus). */
export const APPOINTMENT_STATUS: Record<AppointmentStatus, string> = {
  SCHEDULED: "booked",
  CHECKED_IN: "checked-in",
  IN_PROGRESS: "arrived",
  CHECKED_OUT: "fulfilled",
  CANCELLED: "cancelled",
  NO_SHOW: "noshow",
};
const STATUS_OF = Object.fromEntries(Object.entries(APPOINTMENT_STATUS).map(([ours, fhir]) => [fhir, ours]));

/** An appointment as a FHIR Appointment (base R4: US Core 6.1 has no Appointment profile). */
export function fhirAppointment(a: Appointment, provider: Provider | undefined): FhirResource {
  return compact({
    resourceType: "Appointment",
    id: String(a.id),
    meta: { lastUpdated: a.updatedAt.toISOString() },
    status: APPOINTMENT_STATUS[a.status],
    cancelationReason: a.cancellation ? { text: a.cancellation.reasonLabel ?? a.cancellation.reasonKey } : undefined,
    start: a.startsAt.toISOString(),
    end: a.endsAt.toISOString(),
    minutesDuration: Math.round((a.endsAt.getTime() - a.startsAt.getTime()) / 60_000),
    created: a.createdAt.toISOString(),
    comment: a.comments ?? undefined,
    participant: [
      { actor: { reference: `Patient/${a.patientId}` }, required: "required", status: "accepted" },
      provider
        ? {
            actor: { reference: `Practitioner/${provider.id}`, display: `${provider.firstName} ${provider.lastName}` },
            required: "required",
            status: "accepted",
          }
        : undefined,
      { actor: { reference: `Location/${a.clinicId}` }, required: "required", status: "accepted" },
    ],
  });
}

/** The provider of each appointment, by its doctor (user) id. */
async function withProviders(practice: Practice, principal: Principal, list: readonly Appointment[]) {
  const providers = await practice.appointments.providersOf(principal, list);
  return list.map((a) => fhirAppointment(a, providers.get(a.doctorId)));
}

/** Appointment: the appointments within the token's clinics (v1 /apis/v1/appointments, v2 /v2/appointments). */
export function appointmentResourceType(practice: Practice): FhirResourceType {
  return {
    type: "Appointment",
    profile: undefined,
    scopes: scopePair("appointments").read,
    source: "the appointments within the token's clinics",
    sorts: ["date"],
    searchParams: [
      { name: "patient", type: "reference", documentation: "Patient/{id}" },
      { name: "practitioner", type: "reference", documentation: "Practitioner/{id}" },
      { name: "location", type: "reference", documentation: "Location/{id}" },
      { name: "date", type: "date", documentation: "The start, with eq, gt, lt, ge or le" },
      {
        name: "status",
        type: "token",
        documentation: `booked, checked-in, arrived, fulfilled, cancelled or noshow (comma-separated: any)`,
      },
    ],
    async read({ principal }, id) {
      const a = await practice.appointments.get(principal, /^[1-9]\d{0,9}$/.test(id) ? Number(id) : 0);
      return (await withProviders(practice, principal, [a]))[0]!;
    },
    async search({ principal }, search) {
      const found = await searchAppointments(practice, principal, search, "Appointment", {
        statusOf: STATUS_OF,
        among: Object.keys(APPOINTMENT_STATUS),
      });
      return { resources: await withProviders(practice, principal, found.appointments), hasMore: found.hasMore };
    },
  };
}
