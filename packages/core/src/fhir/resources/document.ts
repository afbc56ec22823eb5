import type { PatientDocument } from "../../documents/patient-document.js";
import { compact, type FhirResource } from "./fhir-json.js";
import { FHIR_SYSTEMS, US_CORE } from "./fhir-systems.js";

/** LOINC document types of the categories that have one; the others carry their category as text. */
const LOINC_TYPE: Readonly<Record<string, { code: string; display: string }>> = {
  visit_summary: { code: "11506-3", display: "Progress note" },
  referral: { code: "57133-1", display: "Referral note" },
  imaging: { code: "18748-4", display: "Diagnostic imaging study" },
};

/** A patient document (an upload or a visit's summary PDF) as a US Core DocumentReference. */
export function fhirDocumentReference(d: PatientDocument): FhirResource {
  const loinc = LOINC_TYPE[d.category];
  return compact({
    resourceType: "DocumentReference",
    id: String(d.id),
    meta: { lastUpdated: d.updatedAt.toISOString(), profile: [US_CORE.documentReference] },
    identifier: [{ system: FHIR_SYSTEMS.documentId, value: String(d.id) }],
    status: "current",
    type: loinc ? { coding: [{ system: FHIR_SYSTEMS.loinc, ...loinc }], text: d.category } : { text: d.category },
    category: [
      {
        coding: [{ system: FHIR_SYSTEMS.usCoreDocumentCategory, code: "clinical-note", display: "Clinical Note" }],
      },
    ],
    subject: { reference: `Patient/${d.patientId}` },
    date: d.createdAt.toISOString(),
    description: d.description ?? undefined,
    content: [
      {
        attachment: {
          contentType: d.mediaType,
          url: `Binary/${d.id}`,
          size: d.sizeBytes,
          title: d.title,
          creation: d.documentDate ?? undefined,
        },
        format: {
          system: FHIR_SYSTEMS.ihe,
          code: "urn:ihe:iti:xds:2017:mimeTypeSufficient",
          display: "mimeType Sufficient",
        },
      },
    ],
    context: {
      encounter: d.appointmentId ? [{ reference: `Encounter/${d.appointmentId}` }] : undefined,
      period: d.documentDate ? { start: d.documentDate } : undefined,
    },
  });
}
