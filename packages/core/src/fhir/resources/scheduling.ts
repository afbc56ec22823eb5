import type { ProviderSchedule } from "../../scheduling/provider-schedule.js";
import { compact, type FhirResource } from "./fhir-json.js";

const WEEKDAY_NAMES = { MO: "Mon", TU: "Tue", WE: "Wed", TH: "Thu", FR: "Fri", SA: "Sat", SU: "Sun" } as const;

/** A provider's working hours at a clinic (one version of them) as a FHIR Schedule. */
export function fhirSchedule(s: ProviderSchedule, timeZone: string | undefined): FhirResource {
  const days = s.weekdays.map((d) => WEEKDAY_NAMES[d]).join(", ");
  return compact({
    resourceType: "Schedule",
    id: String(s.id),
    meta: { lastUpdated: s.updatedAt.toISOString() },
    active: s.replacedById === null,
    actor: [{ reference: `Practitioner/${s.providerId}` }, { reference: `Location/${s.clinicId}` }],
    planningHorizon: { start: s.effectiveFrom, end: s.effectiveUntil ?? undefined },
    comment: `${s.rrule ? `${s.rrule}; ` : ""}${days} ${s.startTime}-${s.endTime}${timeZone ? ` (${timeZone})` : ""}`,
  });
}

/** A free slot of a schedule (id `{schedule}-{start epoch seconds}-{minutes}`). */
export function fhirSlot(scheduleId: number, start: Date, minutes: number): FhirResource {
  return {
    resourceType: "Slot",
    id: `${scheduleId}-${start.getTime() / 1000}-${minutes}`,
    schedule: { reference: `Schedule/${scheduleId}` },
    status: "free",
    start: start.toISOString(),
    end: new Date(start.getTime() + minutes * 60_000).toISOString(),
  };
}
