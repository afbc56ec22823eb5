import {
  type Appointment,
  dateRange,
  DomainError,
  type Practice,
  type Principal,
  splitValues,
} from "@openpractice/core";
import type { FhirSearch } from "./fhir-resource-type.js";
import { commonIds, intersect, referencedIds, singleValue, unlessMissing } from "./fhir-values.js";

/**
 * A search over the appointment list (v1's, within the token's clinics), shared by Appointment and Encounter:
 * `patient`, `practitioner` and `location` (one reference each), `date` (the start; repeated, both hold), `status`
 * (the resource's codes, read through `statusOf` into ours; `among` limits them), `_sort=date`. The list pages by
 * page number, so `_offset` must be a multiple of `_count` (the links always are).
 */
export async function searchAppointments(
  practice: Practice,
  principal: Principal,
  search: FhirSearch,
  type: string,
  status: { statusOf: Readonly<Record<string, string>>; among: readonly string[] },
): Promise<{ appointments: Appointment[]; hasMore: boolean }> {
  const p = search.params;
  const none = { appointments: [], hasMore: false };
  if (search.count > 0 && search.offset % search.count !== 0)
    throw DomainError.invalidParameter("_offset", search.offset, `must be a multiple of _count for ${type}`);
  const one = (name: string, target: string) => {
    const ids = commonIds(referencedIds(name, target, p.get(name)));
    if (ids && ids.length > 1) throw DomainError.invalidParameter(name, p.get(name)?.[0]?.value, "takes one reference");
    return ids;
  };
  const patients = one("patient", "Patient");
  const providerIds = one("practitioner", "Practitioner");
  const clinics = one("location", "Location");
  // A reference whose alternatives never meet (patient=Patient/1&patient=Patient/2) matches nothing.
  if ([patients, providerIds, clinics].some((l) => l && l.length === 0)) return none;
  let doctorId: number | undefined;
  if (providerIds) {
    const provider = await unlessMissing(practice.providers.get(principal, providerIds[0]!), "PROVIDER_NOT_FOUND");
    if (!provider) return none;
    doctorId = provider.userId;
  }
  let statuses = [...status.among];
  for (const s of p.get("status") ?? []) {
    const named = splitValues(s.value).map((v) => {
      const ours = status.statusOf[v];
      if (!ours)
        throw DomainError.invalidParameter("status", s.value, `must be ${Object.keys(status.statusOf).join(", ")}`);
      return ours;
    });
    statuses = statuses.filter((x) => named.includes(x));
  }
  if (statuses.length === 0 || search.count === 0) return none;
  const window = intersect(p.get("date")?.map((s) => dateRange("date", singleValue("date", s))) ?? []);
  if (window.from && window.before && window.from >= window.before) return none;
  const page = await practice.appointments.list(principal, {
    page: search.offset / search.count + 1,
    size: search.count,
    patientId: patients?.[0],
    doctorId,
    clinicId: clinics?.[0],
    statuses,
    from: window.from,
    to: window.before,
    sort: "start",
    order: search.sort[0]?.descending ? "desc" : "asc",
  });
  return { appointments: page.appointments, hasMore: search.offset + page.appointments.length < page.total };
}
