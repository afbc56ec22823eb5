import { localDate } from "../cases/visit-tracking.js";
import type { CompletedNoteDigest } from "./soap-note-repository.js";
import { diagnosesOf } from "./soap-note-content.js";

/** How many medical records an expanded patient shows: its newest completed notes. */
export const MEDICAL_RECORDS_PER_PATIENT = 20;

/**
 * A completed SOAP note as a patient's medical record (spec 2.5, `expand=medical_records`):
 * the note's context id, the clinic-local service date, its diagnosis and the rendering physician.
 */
export interface MedicalRecord {
  contextId: string;
  patientId: number;
  /** YYYY-MM-DD in the clinic's time zone (the claim's service date). */
  date: string;
  /** "<ICD-10 code> <description>" of the Assessment's primary diagnosis, else its treating diagnosis text, else null. */
  diagnosis: string | null;
  renderingPhysician: number;
}

/**
 * The one diagnosis a record shows: the primary medical_diagnosis entry (is_primary true, else the first; the
 * code a claim lists first), as code and description; without entries, the treating_diagnosis text.
 */
export function recordDiagnosis(assessment: Record<string, unknown>): string | null {
  const entries = diagnosesOf({ response: assessment });
  const primary = entries.find((d) => d.is_primary === true) ?? entries[0];
  if (primary)
    return [primary.code, primary.description].filter((s) => typeof s === "string" && s.trim() !== "").join(" ");
  const sections = (assessment.Assessment ?? {}) as Record<string, { treating_diagnosis?: unknown }>;
  const treating = Object.values(sections)
    .map((s) => (s && typeof s.treating_diagnosis === "string" ? s.treating_diagnosis.trim() : ""))
    .find((t) => t !== "");
  return treating ?? null;
}

/** A digest read by the repository as a medical record; `timeZoneOf` gives each clinic's zone (UTC when unknown). */
export const toMedicalRecord = (n: CompletedNoteDigest, timeZoneOf: (clinicId: number) => string): MedicalRecord => ({
  contextId: n.contextId,
  patientId: n.patientId,
  date: localDate(n.serviceDateTime, timeZoneOf(n.clinicId)),
  diagnosis: recordDiagnosis(n.assessment),
  renderingPhysician: n.renderingPhysician,
});
