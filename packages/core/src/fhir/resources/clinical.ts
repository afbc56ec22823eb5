import type { Appointment, AppointmentStatus } from "../../appointments/appointment.js";
import type { AppointmentCategory } from "../../catalog/catalog.js";
import { dottedIcdCode } from "../../icd/icd-code.js";
import type { Provider } from "../../organisations/organisation.js";
import type { RecordedDiagnosis } from "../recorded-diagnoses.js";
import { compact, type FhirResource } from "./fhir-json.js";
import { FHIR_SYSTEMS, US_CORE } from "./fhir-systems.js";

/** The appointment statuses that are encounters (the patient came), as FHIR EncounterStatus. */
export const ENCOUNTER_STATUS: Partial<Record<AppointmentStatus, string>> = {
  CHECKED_IN: "arrived",
  IN_PROGRESS: "in-progress",
  CHECKED_OUT: "finished",
};

/** A visit (an appointment the patient came to) as a US Core Encounter. */
export function fhirEncounter(
  a: Appointment,
  provider: Provider | undefined,
  categories: ReadonlyMap<number, AppointmentCategory>,
): FhirResource {
  const kinds = a.categoryIds.map((id) => categories.get(id)).filter((c) => c !== undefined);
  const virtual = kinds.length > 0 && kinds.every((c) => c.type === "TELEHEALTH");
  const period = {
    start: a.startsAt.toISOString(),
    end: a.status === "CHECKED_OUT" ? a.endsAt.toISOString() : undefined,
  };
  return compact({
    resourceType: "Encounter",
    id: String(a.id),
    meta: { lastUpdated: a.updatedAt.toISOString(), profile: [US_CORE.encounter] },
    identifier: [{ system: FHIR_SYSTEMS.appointmentId, value: String(a.id) }],
    status: ENCOUNTER_STATUS[a.status],
    class: virtual
      ? { system: FHIR_SYSTEMS.actCode, code: "VR", display: "virtual" }
      : { system: FHIR_SYSTEMS.actCode, code: "AMB", display: "ambulatory" },
    type: kinds.length ? kinds.map((c) => ({ text: c.name })) : [{ text: "Outpatient visit" }],
    subject: { reference: `Patient/${a.patientId}` },
    participant: provider
      ? [
          {
            type: [
              { coding: [{ system: FHIR_SYSTEMS.participationType, code: "PPRF", display: "primary performer" }] },
            ],
            period,
            individual: {
              reference: `Practitioner/${provider.id}`,
              display: `${provider.firstName} ${provider.lastName}`,
            },
          },
        ]
      : undefined,
    period,
    location: [{ location: { reference: `Location/${a.clinicId}` } }],
    serviceProvider: { reference: `Organization/${a.organisationId}` },
  });
}

/** A diagnosis of a completed note's Assessment as a US Core Condition (encounter diagnosis). */
export function fhirCondition(d: RecordedDiagnosis): FhirResource {
  const code = dottedIcdCode(d.entry.code.replace(".", "").toUpperCase());
  return compact({
    resourceType: "Condition",
    id: d.id,
    meta: {
      lastUpdated: (d.note.completedAt ?? d.note.serviceDateTime).toISOString(),
      profile: [US_CORE.conditionEncounterDiagnosis],
    },
    verificationStatus: {
      coding: [{ system: FHIR_SYSTEMS.conditionVerification, code: "confirmed", display: "Confirmed" }],
    },
    category: [
      {
        coding: [
          { system: FHIR_SYSTEMS.conditionCategory, code: "encounter-diagnosis", display: "Encounter Diagnosis" },
        ],
      },
    ],
    code: {
      coding: [{ system: FHIR_SYSTEMS.icd10cm, code, display: d.entry.description || undefined }],
      text: d.entry.description || code,
    },
    subject: { reference: `Patient/${d.note.patientId}` },
    encounter: d.note.appointmentId ? { reference: `Encounter/${d.note.appointmentId}` } : undefined,
    recordedDate: (d.note.completedAt ?? d.note.serviceDateTime).toISOString(),
  });
}
