import {
  calendarDateRange,
  DomainError,
  FHIR_SYSTEMS,
  fhirDomainError,
  fhirSchedule,
  fhirSlot,
  type Practice,
  type Principal,
  type ProviderSchedule,
  SLOT_LIMITS,
  splitValues,
  token,
} from "@openpractice/core";
import { scopePair } from "../define-route.js";
import type { FhirResourceType, FhirSearch } from "./fhir-resource-type.js";
import { commonIds, idsOfTokens, referencedIds, singleValue, recordId, unlessMissing } from "./fhir-values.js";

/** A slot's length when the search names no appointment type (minutes). */
export const DEFAULT_SLOT_MINUTES = 30;
const DAY_MS = 86_400_000;

/** The schedule, or not found as a FHIR resource. */
async function scheduleOf(practice: Practice, principal: Principal, id: number): Promise<ProviderSchedule> {
  try {
    return await practice.schedules.get(principal, id);
  } catch (error) {
    if (error instanceof DomainError && error.code === "SCHEDULE_NOT_FOUND")
      throw fhirDomainError("FHIR_RESOURCE_NOT_FOUND", "Schedule not found", { resource_type: "Schedule", id });
    throw error;
  }
}

/**
 * The free slots of one schedule from `from` for `days` clinic days: the provider's bookable slots at the clinic
 * (v2 /v2/slots: working hours less blocks and appointments) on the days this version of the schedule is in force.
 */
async function freeSlots(
  practice: Practice,
  principal: Principal,
  s: ProviderSchedule,
  window: { startDate: string; days: number; minutes: number; appointmentTypeId: number | undefined },
): Promise<Date[]> {
  const [found] = await practice.slots.find(principal, {
    providerIds: [s.providerId],
    clinicId: s.clinicId,
    ...(window.appointmentTypeId === undefined
      ? { slotLength: window.minutes }
      : { appointmentTypeId: window.appointmentTypeId }),
    startDate: window.startDate,
    days: window.days,
  });
  if (!found) return [];
  const day = (d: Date) => new Intl.DateTimeFormat("en-CA", { timeZone: found.timeZone }).format(d);
  return found.slots.filter(
    (d) => day(d) >= s.effectiveFrom && (s.effectiveUntil === null || day(d) <= s.effectiveUntil),
  );
}

/** The appointment type a Slot search names (`service-type`), whose duration sets the slots' length. */
function appointmentTypeOf(search: FhirSearch): number | undefined {
  const sent = search.params.get("service-type");
  if (!sent) return undefined;
  const ids = splitValues(singleValue("service-type", sent[0]!)).map((raw) => {
    const t = token(raw);
    if (t.system !== undefined && t.system !== FHIR_SYSTEMS.appointmentTypeId) return Number.NaN;
    return recordId(t.code ?? "");
  });
  if (sent.length > 1 || ids.length !== 1 || !(ids[0]! > 0))
    throw DomainError.invalidParameter("service-type", sent[0]!.value, "names one appointment type id");
  return ids[0];
}

/** Schedule and Slot: providers' working hours at their clinics and the free slots they leave. */
export function schedulingResourceTypes(practice: Practice): FhirResourceType[] {
  const scopes = scopePair("schedules").read;
  return [
    {
      type: "Schedule",
      profile: undefined,
      scopes,
      source: "providers' working hours at their clinics (v2 /v2/providers/{id}/schedules), within the token's clinics",
      sorts: ["_id"],
      searchParams: [
        { name: "actor", type: "reference", documentation: "Practitioner/{id} (a search names the practitioner)" },
        { name: "_id", type: "token", documentation: "The schedule id (comma-separated: any of them)" },
        { name: "active", type: "token", documentation: "true: the current versions; false: replaced ones" },
      ],
      async read({ principal }, id) {
        const s = await scheduleOf(practice, principal, recordId(id));
        const clinics = await practice.directory.listClinics(principal);
        return fhirSchedule(s, clinics.find((c) => c.id === s.clinicId)?.timeZone);
      },
      async search({ principal }, search) {
        const actors = commonIds(referencedIds("actor", "Practitioner", search.params.get("actor")));
        if (!actors) throw DomainError.invalidParameter("actor", null, "a Schedule search names the practitioner");
        if (actors.length !== 1) return { resources: [], hasMore: false };
        const ids = commonIds(idsOfTokens(search.params.get("_id"), null));
        const active = search.params.get("active")?.map((s) => {
          const v = singleValue("active", s);
          if (v !== "true" && v !== "false")
            throw DomainError.invalidParameter("active", s.value, "must be true or false");
          return v === "true";
        });
        const listed = await unlessMissing(
          practice.schedules.list(principal, actors[0]!, { status: "all", perPage: 100 }),
          "PROVIDER_NOT_FOUND",
        );
        if (!listed) return { resources: [], hasMore: false };
        const schedules = listed.schedules;
        const zones = new Map((await practice.directory.listClinics(principal)).map((c) => [c.id, c.timeZone]));
        const matching = schedules
          .filter((s) => !ids || ids.includes(s.id))
          .filter((s) => (active ?? []).every((a) => a === (s.replacedById === null)))
          .sort((a, b) => (search.sort[0]?.descending ? b.id - a.id : a.id - b.id));
        return {
          resources: matching
            .slice(search.offset, search.offset + search.count)
            .map((s) => fhirSchedule(s, zones.get(s.clinicId))),
          hasMore: matching.length > search.offset + search.count,
        };
      },
    },
    {
      type: "Slot",
      profile: undefined,
      scopes,
      source: "the free slots a schedule leaves (v2 /v2/slots: working hours less blocks and appointments)",
      sorts: [],
      searchParams: [
        { name: "schedule", type: "reference", documentation: "Schedule/{id} (a search names the schedule)" },
        {
          name: "start",
          type: "date",
          documentation: `The slot's start day, with ge, gt, le, lt or eq (default: 7 days from today; at most ${SLOT_LIMITS.maxDays} days)`,
        },
        { name: "status", type: "token", documentation: "free (the only status listed)" },
        {
          name: "service-type",
          type: "token",
          documentation: `An appointment type id (${FHIR_SYSTEMS.appointmentTypeId}|{id}): its duration is the slots' length (default ${DEFAULT_SLOT_MINUTES} minutes)`,
        },
      ],
      async read({ principal }, id) {
        const m = /^([1-9]\d{0,9})-(\d{1,12})-(\d{1,3})$/.exec(id);
        const notFound = () =>
          fhirDomainError("FHIR_RESOURCE_NOT_FOUND", "Slot not found (taken, past or never offered)", {
            resource_type: "Slot",
            id,
          });
        if (!m) throw notFound();
        const s = await scheduleOf(practice, principal, recordId(m[1] as string));
        const start = new Date(Number(m[2]) * 1000);
        const minutes = Number(m[3]);
        if (minutes < SLOT_LIMITS.minLength || minutes > SLOT_LIMITS.maxLength) throw notFound();
        // Still free: among the slots of that day (and the day before, for a zone behind UTC).
        const day = new Date(start.getTime() - DAY_MS).toISOString().slice(0, 10);
        const free = await freeSlots(practice, principal, s, {
          startDate: day,
          days: 3,
          minutes,
          appointmentTypeId: undefined,
        });
        if (!free.some((d) => d.getTime() === start.getTime())) throw notFound();
        return fhirSlot(s.id, start, minutes);
      },
      async search({ principal }, search) {
        const schedules = commonIds(referencedIds("schedule", "Schedule", search.params.get("schedule")));
        if (!schedules) throw DomainError.invalidParameter("schedule", null, "a Slot search names the schedule");
        const none = { resources: [], hasMore: false };
        if (schedules.length !== 1) return none;
        for (const s of search.params.get("status") ?? []) if (!splitValues(s.value).includes("free")) return none;
        const s = await scheduleOf(practice, principal, schedules[0]!).catch((error: unknown) => {
          if (error instanceof DomainError && error.code === "FHIR_RESOURCE_NOT_FOUND") return undefined;
          throw error;
        });
        if (!s) return none;
        const ranges =
          search.params.get("start")?.map((p) => calendarDateRange("start", singleValue("start", p))) ?? [];
        // The practice's clock (an embedder's, or a test's), not the machine's.
        const today = practice.clock.now().toISOString().slice(0, 10);
        const from = ranges.reduce<string>((acc, r) => (r.from && r.from > acc ? r.from : acc), today);
        const defaultEnd = new Date(Date.parse(from) + 7 * DAY_MS).toISOString().slice(0, 10);
        const before = ranges.reduce<string>(
          (acc, r) => (r.before && r.before < acc ? r.before : acc),
          ranges.some((r) => r.before) ? "9999-12-31" : defaultEnd,
        );
        const days = Math.round((Date.parse(before) - Date.parse(from)) / DAY_MS);
        if (days <= 0) return none;
        if (days > SLOT_LIMITS.maxDays)
          throw DomainError.invalidParameter(
            "start",
            search.params.get("start")?.map((p) => p.value),
            `must span at most ${SLOT_LIMITS.maxDays} days`,
          );
        const appointmentTypeId = appointmentTypeOf(search);
        const free = await freeSlots(practice, principal, s, {
          startDate: from,
          days,
          minutes: DEFAULT_SLOT_MINUTES,
          appointmentTypeId,
        });
        const minutes =
          appointmentTypeId === undefined
            ? DEFAULT_SLOT_MINUTES
            : ((await practice.catalog.appointmentCategories(principal)).find((c) => c.id === appointmentTypeId)
                ?.durationMinutes ?? DEFAULT_SLOT_MINUTES);
        return {
          resources: free.slice(search.offset, search.offset + search.count).map((d) => fhirSlot(s.id, d, minutes)),
          hasMore: free.length > search.offset + search.count,
        };
      },
    },
  ];
}
