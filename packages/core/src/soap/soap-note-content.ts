import { createHash } from "node:crypto";
import { stringify } from "safe-stable-stringify";
import {
  ASSESSMENT_DIAGNOSIS_KEY,
  SOAP_SECTIONS,
  type DiagnosisEntry,
  type FormSubmission,
  type SoapNote,
  type SoapSection,
} from "./soap-note.js";
import type { TreatmentLine } from "./treatment-sheet.js";
import type { DocumentationSettings } from "../organisations/organisation.js";

/** True when `value` holds at least one answer: a non-blank string, a number, a boolean, or such a value inside. */
function hasAnswer(value: unknown): boolean {
  if (value === null || value === undefined) return false;
  if (typeof value === "string") return value.trim() !== "";
  if (typeof value === "number" || typeof value === "boolean") return true;
  if (Array.isArray(value)) return value.some(hasAnswer);
  if (typeof value === "object") return Object.values(value).some(hasAnswer);
  return false;
}

/** Every medical_diagnosis entry of the Assessment form, in section order. */
export function diagnosesOf(assessment: Pick<FormSubmission, "response"> | undefined): DiagnosisEntry[] {
  const sections = (assessment?.response.Assessment ?? {}) as Record<string, { medical_diagnosis?: DiagnosisEntry[] }>;
  const ordered = [
    sections[ASSESSMENT_DIAGNOSIS_KEY],
    ...Object.entries(sections)
      .filter(([k]) => k !== ASSESSMENT_DIAGNOSIS_KEY)
      .map(([, v]) => v),
  ];
  return ordered.flatMap((s) => (s && Array.isArray(s.medical_diagnosis) ? s.medical_diagnosis : []));
}

/** The sections spec 2.1 gives a note (subjective, objective and assessment submission ids): always required. */
export const SPEC_SECTIONS: readonly SoapSection[] = Object.freeze(["Subjective", "Objective", "Assessment"]);

/** The sections a note must have filled to be signed: the spec's three, and the Plan when the organisation requires it. */
export const requiredSections = (settings: Pick<DocumentationSettings, "requirePlanSection">): SoapSection[] =>
  settings.requirePlanSection ? [...SPEC_SECTIONS, "Plan"] : [...SPEC_SECTIONS];

/**
 * The required sections a note still lacks before it can be signed or
 * completed. A section is filled when its form holds an answer; the Assessment
 * needs at least one diagnosis. An ADDENDUM amends a completed note, so any one
 * filled section (the Plan included) is enough; the required ones are named
 * when none is.
 */
export function missingSections(
  note: Pick<SoapNote, "type">,
  forms: readonly FormSubmission[],
  required: readonly SoapSection[],
): SoapSection[] {
  const formOf = (s: SoapSection) => forms.find((f) => f.section === s);
  const filled = (s: SoapSection) =>
    s === "Assessment" ? diagnosesOf(formOf(s)).length > 0 : hasAnswer(formOf(s)?.response);
  if (note.type === "ADDENDUM") return SOAP_SECTIONS.some(filled) ? [] : [...required];
  return required.filter((s) => !filled(s));
}

/**
 * "sha256:<hex>" of what a signature covers: the note's identity, patient,
 * type, date and providers, every section's answers and the treatment lines,
 * as canonical JSON (keys sorted), so the same content always hashes the same.
 */
export function soapContentHash(
  note: SoapNote,
  forms: readonly FormSubmission[],
  treatments: readonly TreatmentLine[],
): string {
  const content = {
    context_id: note.contextId,
    organisation_id: note.organisationId,
    patient_id: note.patientId,
    service_case_id: note.serviceCaseId,
    appointment_id: note.appointmentId,
    type: note.type,
    service_date_time: note.serviceDateTime.toISOString(),
    rendering_physician: note.renderingPhysician,
    supervising_physician: note.supervisingPhysician,
    parent: note.parent,
    sections: Object.fromEntries(SOAP_SECTIONS.map((s) => [s, forms.find((f) => f.section === s)?.response ?? {}])),
    treatments,
  };
  return `sha256:${createHash("sha256").update(stringify(content)).digest("hex")}`;
}
