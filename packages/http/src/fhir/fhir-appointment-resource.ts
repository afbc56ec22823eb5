import {
  type Appointment,
  type AppointmentStatus,
  dateRange,
  DomainError,
  type Practice,
  type Principal,
  type Provider,
  splitValues,
} from "@openpractice/core";
import { scopePair } from "../define-route.js";
import type { FhirResource, FhirResourceType } from "./fhir-resource-type.js";
import { commonIds, compact, intersect, referencedIds, singleValue } from "./fhir-values.js";

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
      const p = search.params;
      if (search.count > 0 && search.offset % search.count !== 0)
        throw DomainError.invalidParameter("_offset", search.offset, "must be a multiple of _count for Appointment");
      const none = { resources: [], hasMore: false };
      const one = (name: string, type: string) => {
        const ids = commonIds(referencedIds(name, type, p.get(name)));
        if (ids && ids.length > 1)
          throw DomainError.invalidParameter(name, p.get(name)?.[0]?.value, "takes one reference");
        return ids;
      };
      const patients = one("patient", "Patient");
      const providerIds = one("practitioner", "Practitioner");
      const clinics = one("location", "Location");
      // A reference whose alternatives never meet (patient=Patient/1&patient=Patient/2) matches nothing.
      if ([patients, providerIds, clinics].some((l) => l && l.length === 0)) return none;
      let doctorId: number | undefined;
      if (providerIds) {
        const provider = (await practice.directory.listProviders(principal)).find((x) => x.id === providerIds[0]);
        if (!provider) return none;
        doctorId = provider.userId;
      }
      const statuses = p.get("status")?.map((s) =>
        splitValues(s.value).map((v) => {
          const ours = STATUS_OF[v];
          if (!ours)
            throw DomainError.invalidParameter(
              "status",
              s.value,
              "must be booked, checked-in, arrived, fulfilled, cancelled or noshow",
            );
          return ours;
        }),
      );
      const allowed = statuses?.reduce((acc, l) => acc.filter((x) => l.includes(x)));
      if (allowed && allowed.length === 0) return none;
      const window = intersect(p.get("date")?.map((s) => dateRange("date", singleValue("date", s))) ?? []);
      if (window.from && window.before && window.from >= window.before) return none;
      if (search.count === 0) return none;
      const page = await practice.appointments.list(principal, {
        page: search.offset / search.count + 1,
        size: search.count,
        patientId: patients?.[0],
        doctorId,
        clinicId: clinics?.[0],
        statuses: allowed,
        from: window.from,
        to: window.before,
        sort: "start",
        order: search.sort[0]?.descending ? "desc" : "asc",
      });
      return {
        resources: await withProviders(practice, principal, page.appointments),
        hasMore: search.offset + page.appointments.length < page.total,
      };
    },
  };
}
