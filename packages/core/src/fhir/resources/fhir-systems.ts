/**
 * Code systems and identifier systems the facade writes (docs/fhir.md, "Identifiers and code systems"): the real
 * ones where the data has a standard meaning, and OpenPractice's own URNs for its record ids.
 */
export const FHIR_SYSTEMS = Object.freeze({
  npi: "http://hl7.org/fhir/sid/us-npi",
  ein: "urn:oid:2.16.840.1.113883.4.4",
  icd10cm: "http://hl7.org/fhir/sid/icd-10-cm",
  /** HL7 v2 table 0131 (contact role): C, emergency contact. */
  contactRole: "http://terminology.hl7.org/CodeSystem/v2-0131",
  /** HL7 v2 table 0203 (identifier type): MR, medical record number. */
  identifierType: "http://terminology.hl7.org/CodeSystem/v2-0203",
  /** FHIR subscriber relationship codes (self, spouse, child, other). */
  subscriberRelationship: "http://terminology.hl7.org/CodeSystem/subscriber-relationship",
  /** FHIR coverage class types (group, plan). */
  coverageClass: "http://terminology.hl7.org/CodeSystem/coverage-class",
  /** The payer id a coverage names (the X12 payer id of the payer registry; no national system exists). */
  payerId: "urn:openpractice:sid:payer-id",
  /** HL7 v3 ActCode: encounter classes AMB (ambulatory) and VR (virtual). */
  actCode: "http://terminology.hl7.org/CodeSystem/v3-ActCode",
  /** HL7 v3 ParticipationType: PPRF, primary performer. */
  participationType: "http://terminology.hl7.org/CodeSystem/v3-ParticipationType",
  conditionCategory: "http://terminology.hl7.org/CodeSystem/condition-category",
  conditionVerification: "http://terminology.hl7.org/CodeSystem/condition-ver-status",
  loinc: "http://loinc.org",
  /** US Core's DocumentReference category (clinical-note). */
  usCoreDocumentCategory: "http://hl7.org/fhir/us/core/CodeSystem/us-core-documentreference-category",
  /** IHE format codes of DocumentReference.content.format. */
  ihe: "http://ihe.net/fhir/ihe.formatcode.fhir/CodeSystem/formatcode",
  /** OpenPractice's patient document ids. */
  documentId: "urn:openpractice:sid:document-id",
  /** OpenPractice's appointment type ids (a Slot search's service-type). */
  appointmentTypeId: "urn:openpractice:sid:appointment-type-id",
  /** OpenPractice's appointment ids (an Encounter is the visit of an appointment). */
  appointmentId: "urn:openpractice:sid:appointment-id",
  /** OpenPractice's patient ids: unique on the server, the id of the v1 and v2 APIs. */
  patientId: "urn:openpractice:sid:patient-id",
  /** OpenPractice's provider ids (v2 provider id). */
  providerId: "urn:openpractice:sid:provider-id",
  /** OpenPractice's clinic ids. */
  clinicId: "urn:openpractice:sid:clinic-id",
  /** OpenPractice's organisation ids. */
  organisationId: "urn:openpractice:sid:organisation-id",
});

/** The US Core 6.1 profiles the resources claim. */
export const US_CORE = Object.freeze({
  patient: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient",
  practitioner: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-practitioner",
  practitionerRole: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-practitionerrole",
  organization: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-organization",
  location: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-location",
  coverage: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-coverage",
  encounter: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-encounter",
  documentReference: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-documentreference",
  conditionEncounterDiagnosis: "http://hl7.org/fhir/us/core/StructureDefinition/us-core-condition-encounter-diagnosis",
});
