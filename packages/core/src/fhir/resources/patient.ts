import type { Patient, Sex } from "../../patients/patient.js";
import { compact, type FhirResource } from "./fhir-json.js";
import { FHIR_SYSTEMS, US_CORE } from "./fhir-systems.js";

/** Our sexes as FHIR administrative gender. */
export const FHIR_GENDER: Record<Sex, string> = {
  MALE: "male",
  FEMALE: "female",
  OTHER: "other",
  UNDEFINED: "unknown",
};

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
    gender: FHIR_GENDER[p.sex],
    birthDate: p.dateOfBirth,
    address: [
      Object.values(a).some((part) => part !== null)
        ? {
            use: "home",
            line: [a.line1 ?? undefined, a.line2 ?? undefined],
            city: a.city ?? undefined,
            state: a.state ?? undefined,
            postalCode: a.postalCode ?? undefined,
            country: a.country ?? undefined,
          }
        : undefined,
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
