import { eventsOf } from "../kernel/events.js";

const APPOINTMENT_FIELDS = ["organisation_id", "appointment_id", "patient_id", "service_case_id", "clinic_id"] as const;

/** Appointment events: spec 6.1, identifiers only (service_case_id null when the appointment has no case). */
export const APPOINTMENT_EVENTS = {
  "appointment.created": { fields: APPOINTMENT_FIELDS, description: "An appointment was booked." },
  "appointment.updated": {
    fields: APPOINTMENT_FIELDS,
    description: "An appointment was checked in, started, checked out, marked a no-show or rescheduled.",
  },
  "appointment.cancelled": { fields: APPOINTMENT_FIELDS, description: "An appointment was cancelled." },
} as const;

/** Builds one of the events above, with exactly its payload fields. */
export const appointmentEvent = eventsOf(APPOINTMENT_EVENTS);
