import type { Appointment, AppointmentStatus } from "../../appointments/appointment.js";
import type { Provider } from "../../organisations/organisation.js";
import { compact, type FhirResource } from "./fhir-json.js";

/** Our appointment statuses as FHIR AppointmentStatus (http://hl7.org/fhir/appointmentstatus). */
export const APPOINTMENT_STATUS: Record<AppointmentStatus, string> = {
  SCHEDULED: "booked",
  CHECKED_IN: "checked-in",
  IN_PROGRESS: "arrived",
  CHECKED_OUT: "fulfilled",
  CANCELLED: "cancelled",
  NO_SHOW: "noshow",
};

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
