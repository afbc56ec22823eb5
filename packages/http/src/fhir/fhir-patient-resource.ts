import {
  calendarDateRange,
  dateRange,
  DomainError,
  FHIR_GENDER,
  FHIR_SYSTEMS,
  fhirPatient,
  type FhirPatientCriteria,
  type Practice,
  type Sex,
  splitValues,
  stringFilter,
  US_CORE,
} from "@openpractice/core";
import { PATIENT_SCOPES } from "../patients/v1-patient-routes.js";
import { type FhirResourceType, stringParam } from "./fhir-resource-type.js";
import { idsOfTokens, recordId, singleValue } from "./fhir-values.js";

const SEX_OF_GENDER = Object.fromEntries(Object.entries(FHIR_GENDER).map(([sex, g]) => [g, sex as Sex]));

const SORTS = { _id: "id", _lastUpdated: "updated", family: "family", birthdate: "birthdate" } as const;

/** Patient: read by id and searched by the US Core parameters over the organisation's patients. */
export function patientResourceType(practice: Practice): FhirResourceType {
  return {
    type: "Patient",
    profile: US_CORE.patient,
    scopes: PATIENT_SCOPES.read,
    source: "the patient registry (v1 patients, v2 /v2/patients)",
    sorts: Object.keys(SORTS),
    searchParams: [
      { name: "_id", type: "token", documentation: "The patient's id (comma-separated: any of them)" },
      {
        name: "identifier",
        type: "token",
        documentation: `The patient id as an identifier: ${FHIR_SYSTEMS.patientId}|{id}, or the value alone`,
      },
      stringParam("name", "The start of the family or a given name, case and accents aside"),
      stringParam("family", "The family name"),
      stringParam("given", "The first given name"),
      { name: "birthdate", type: "date", documentation: "Date of birth, with eq, gt, lt, ge or le" },
      { name: "gender", type: "token", documentation: "male, female, other or unknown" },
      { name: "_lastUpdated", type: "date", documentation: "When the record last changed, with a prefix" },
    ],
    async read({ principal }, id) {
      return fhirPatient(await practice.fhirSearch.patient(principal, recordId(id)));
    },
    async search({ principal }, search) {
      const p = search.params;
      const strings = (name: string) =>
        p.get(name)?.map((s) => stringFilter(s.modifier ? `${name}:${s.modifier}` : name, s.modifier, s.value));
      const criteria: Omit<FhirPatientCriteria, "organisationId"> = {
        ids: [
          ...(idsOfTokens(p.get("_id"), null) ?? []),
          ...(idsOfTokens(p.get("identifier"), FHIR_SYSTEMS.patientId) ?? []),
        ],
        family: strings("family"),
        given: strings("given"),
        name: strings("name"),
        birthDate: p.get("birthdate")?.map((s) => calendarDateRange("birthdate", singleValue("birthdate", s))),
        sex: p.get("gender")?.map((s) =>
          splitValues(s.value).map((g) => {
            const sex = SEX_OF_GENDER[g.replace(/^http:\/\/hl7\.org\/fhir\/administrative-gender\|/, "")];
            if (!sex) throw DomainError.invalidParameter("gender", s.value, "must be male, female, other or unknown");
            return sex;
          }),
        ),
        updated: p.get("_lastUpdated")?.map((s) => dateRange("_lastUpdated", singleValue("_lastUpdated", s))),
        sort: {
          field: search.sort[0] ? SORTS[search.sort[0].name as keyof typeof SORTS] : "id",
          order: search.sort[0]?.descending ? "desc" : "asc",
        },
        limit: search.count,
        offset: search.offset,
      };
      const found = await practice.fhirSearch.searchPatients(principal, criteria);
      return { resources: found.patients.map(fhirPatient), hasMore: found.hasMore };
    },
  };
}
