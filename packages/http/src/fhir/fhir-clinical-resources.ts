import {
  type Appointment,
  DomainError,
  dottedIcdCode,
  ENCOUNTER_STATUS,
  FHIR_SYSTEMS,
  fhirCondition,
  fhirDomainError,
  fhirEncounter,
  type Practice,
  type Principal,
  splitValues,
  token,
  US_CORE,
} from "@openpractice/core";
import { scopePair } from "../define-route.js";
import { NOTE_SCOPES } from "../soap/v1-soap-routes.js";
import type { FhirResourceType, FhirSearch } from "./fhir-resource-type.js";
import { searchAppointments } from "./fhir-appointment-search.js";
import { commonIds, referencedIds, recordId, unlessMissing } from "./fhir-values.js";

const STATUS_OF = Object.fromEntries(Object.entries(ENCOUNTER_STATUS).map(([ours, fhir]) => [fhir, ours]));
const VISIT_STATUSES = Object.keys(ENCOUNTER_STATUS);

/** Encounters with their providers and appointment types. */
async function encounters(practice: Practice, principal: Principal, list: readonly Appointment[]) {
  const [providers, categories] = await Promise.all([
    practice.appointments.providersOf(principal, list),
    practice.catalog.appointmentCategories(principal),
  ]);
  const byId = new Map(categories.map((c) => [c.id, c]));
  return list.map((a) => fhirEncounter(a, providers.get(a.doctorId), byId));
}

/** One reference of a parameter, or none; two different ones never meet (an empty list). */
function oneReference(name: string, type: string, search: FhirSearch) {
  const ids = commonIds(referencedIds(name, type, search.params.get(name)));
  if (ids && ids.length > 1)
    throw DomainError.invalidParameter(name, search.params.get(name)?.[0]?.value, "takes one reference");
  return ids;
}

/** Encounter and Condition: the visits patients came to, and the diagnoses their notes recorded. */
export function clinicalResourceTypes(practice: Practice): FhirResourceType[] {
  return [
    {
      type: "Encounter",
      profile: US_CORE.encounter,
      scopes: scopePair("appointments").read,
      source: "the appointments the patient came to (checked in, in progress, checked out), within the token's clinics",
      sorts: ["date"],
      searchParams: [
        { name: "patient", type: "reference", documentation: "Patient/{id}" },
        { name: "practitioner", type: "reference", documentation: "Practitioner/{id}" },
        { name: "location", type: "reference", documentation: "Location/{id}" },
        { name: "date", type: "date", documentation: "The visit's start, with eq, gt, lt, ge or le" },
        { name: "status", type: "token", documentation: "arrived, in-progress or finished (comma-separated: any)" },
      ],
      async read({ principal }, id) {
        const a = await practice.appointments.get(principal, recordId(id)).catch((error: unknown) => {
          if (error instanceof DomainError && error.code === "APPOINTMENT_NOT_FOUND") return undefined;
          throw error;
        });
        if (!a || !ENCOUNTER_STATUS[a.status])
          throw fhirDomainError("FHIR_RESOURCE_NOT_FOUND", "Encounter not found", { resource_type: "Encounter", id });
        return (await encounters(practice, principal, [a]))[0]!;
      },
      async search({ principal }, search) {
        const found = await searchAppointments(practice, principal, search, "Encounter", {
          statusOf: STATUS_OF,
          among: VISIT_STATUSES,
        });
        return { resources: await encounters(practice, principal, found.appointments), hasMore: found.hasMore };
      },
    },
    {
      type: "Condition",
      profile: US_CORE.conditionEncounterDiagnosis,
      scopes: NOTE_SCOPES.read,
      source: "the diagnoses of completed notes' Assessments (ICD-10-CM), within the token's clinics",
      sorts: [],
      searchParams: [
        { name: "patient", type: "reference", documentation: "Patient/{id} (a search names the patient)" },
        { name: "encounter", type: "reference", documentation: "Encounter/{id}: the visit's diagnoses" },
        {
          name: "code",
          type: "token",
          documentation: `An ICD-10-CM code (${FHIR_SYSTEMS.icd10cm}|M54.50, or the code)`,
        },
        { name: "category", type: "token", documentation: "encounter-diagnosis (the only category recorded)" },
      ],
      read: async ({ principal }, id) => fhirCondition(await practice.fhirSearch.diagnosis(principal, id)),
      async search({ principal }, search) {
        const patients = oneReference("patient", "Patient", search);
        if (!patients) throw DomainError.invalidParameter("patient", null, "a Condition search names the patient");
        if (patients.length === 0) return { resources: [], hasMore: false };
        const visits = oneReference("encounter", "Encounter", search);
        const codes = (search.params.get("code") ?? []).map((s) =>
          splitValues(s.value).flatMap((raw) => {
            const t = token(raw);
            if (t.system !== undefined && t.system !== FHIR_SYSTEMS.icd10cm) return [];
            return t.code ? [dottedIcdCode(t.code.replace(".", "").toUpperCase())] : [];
          }),
        );
        const categories = (search.params.get("category") ?? []).map((s) =>
          splitValues(s.value).some((raw) => token(raw).code === "encounter-diagnosis"),
        );
        const found = await unlessMissing(practice.fhirSearch.diagnoses(principal, patients[0]!), "PATIENT_NOT_FOUND");
        if (!found) return { resources: [], hasMore: false };
        const matching = found
          .filter((d) => !visits || (d.note.appointmentId !== null && visits.includes(d.note.appointmentId)))
          .filter((d) =>
            codes.every((list) => list.includes(dottedIcdCode(d.entry.code.replace(".", "").toUpperCase()))),
          )
          .filter(() => categories.every(Boolean));
        return {
          resources: matching.slice(search.offset, search.offset + search.count).map(fhirCondition),
          hasMore: matching.length > search.offset + search.count,
        };
      },
    },
  ];
}
