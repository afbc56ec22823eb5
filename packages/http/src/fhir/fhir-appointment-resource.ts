import {
  type Appointment,
  APPOINTMENT_STATUS,
  fhirAppointment,
  type Practice,
  type Principal,
} from "@openpractice/core";
import { scopePair } from "../define-route.js";
import type { FhirResourceType } from "./fhir-resource-type.js";
import { searchAppointments } from "./fhir-appointment-search.js";
import { recordId } from "./fhir-values.js";

const STATUS_OF = Object.fromEntries(Object.entries(APPOINTMENT_STATUS).map(([ours, fhir]) => [fhir, ours]));

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
      const a = await practice.appointments.get(principal, recordId(id));
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
