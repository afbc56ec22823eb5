import {
  calendarDateRange,
  dateRange,
  DomainError,
  type FhirPatientCriteria,
  type Patient,
  type Practice,
  type Sex,
  splitValues,
  stringFilter,
} from "@openpractice/core";
import { PATIENT_SCOPES } from "../patients/v1-patient-routes.js";
import { type FhirResource, type FhirResourceType, stringParam } from "./fhir-resource-type.js";
import { FHIR_SYSTEMS, US_CORE } from "./fhir-systems.js";
import { compact, idsOfTokens, singleValue } from "./fhir-values.js";

const GENDER: Record<Sex, string> = { MALE: "male", FEMALE: "female", OTHER: "other", UNDEFINED: "unknown" };
const SEX_OF_GENDER = Object.fromEntries(Object.entries(GENDER).map(([sex, g]) => [g, sex as Sex]));

/** A patient as a US Core Patient (docs/fhir.md, "Patient"). */
export function fhirPatient(p: Patient): FhirResource {
  const a = p.address;
  const e = p.emergencyContact;
  return compact({
    resourceType: "Patient",
    id: String(p.id),
    meta: { lastUpdated: p.updatedAt.toISOString(), profile: [US_CORE.patient] },
    identifier: [
      {
        use: "usual",
        type: {
          coding: [{ system: FHIR_SYSTEMS.identifierType, code: "MR", display: "Medical record number" }],
        },
        system: FHIR_SYSTEMS.patientId,
        value: String(p.id),
      },
    ],
    active: p.status === "active",
    name: [{ use: "official", family: p.lastName, given: [p.firstName, p.middleName ?? undefined] }],
    telecom: [
      p.phone ? { system: "phone", value: p.phone, use: "home" } : undefined,
      p.email ? { system: "email", value: p.email } : undefined,
    ],
    gender: GENDER[p.sex],
    birthDate: p.dateOfBirth,
    address: [
      {
        use: "home",
        line: [a.line1 ?? undefined, a.line2 ?? undefined],
        city: a.city ?? undefined,
        state: a.state ?? undefined,
        postalCode: a.postalCode ?? undefined,
        country: a.country ?? undefined,
      },
    ],
    contact:
      e.name || e.phone
        ? [
            {
              relationship: [
                {
                  coding: [{ system: FHIR_SYSTEMS.contactRole, code: "C", display: "Emergency Contact" }],
                  text: e.relationship ?? undefined,
                },
              ],
              name: e.name ? { text: e.name } : undefined,
              telecom: e.phone ? [{ system: "phone", value: e.phone }] : undefined,
            },
          ]
        : undefined,
  });
}

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
      return fhirPatient(await practice.fhirSearch.patient(principal, /^[1-9]\d{0,9}$/.test(id) ? Number(id) : 0));
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
