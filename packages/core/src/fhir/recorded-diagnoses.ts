import { clinicAccess } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { SoapNoteRepository } from "../soap/soap-note-repository.js";
import { diagnosesOf } from "../soap/soap-note-content.js";
import type { DiagnosisEntry, SoapNote } from "../soap/soap-note.js";

/** The most notes of one patient a diagnosis search reads (a therapy patient has tens). */
export const DIAGNOSIS_NOTES_MAX = 1000;

/** One diagnosis of a completed note's Assessment: what a FHIR Condition (encounter diagnosis) is drawn from. */
export interface RecordedDiagnosis {
  /** `{context id}-{position}`: stable while the note is (a completed note does not change). */
  id: string;
  note: Pick<
    SoapNote,
    "contextId" | "patientId" | "clinicId" | "appointmentId" | "serviceDateTime" | "renderingPhysician" | "completedAt"
  >;
  position: number;
  entry: DiagnosisEntry;
}

type NotesPort = { soapNotes: Pick<SoapNoteRepository, "list" | "formsOf" | "findByContextId"> };

/** The diagnoses of one note's Assessment, in their order (one read of the note's forms). */
export async function diagnosesOfNote(
  r: { soapNotes: Pick<SoapNoteRepository, "formsOf"> },
  note: SoapNote,
): Promise<RecordedDiagnosis[]> {
  const forms = await r.soapNotes.formsOf(note.organisationId, note.contextId);
  return diagnosesOf(forms.find((f) => f.section === "Assessment")).map((entry, position) => ({
    id: `${note.contextId}-${position}`,
    note,
    position,
    entry,
  }));
}

/**
 * The diagnoses of a patient's completed notes (addenda aside) within the principal's clinics, oldest visit
 * first. One read of the notes and one of each note's forms.
 */
export async function patientDiagnoses(
  r: NotesPort,
  principal: Principal,
  patientId: number,
): Promise<RecordedDiagnosis[]> {
  const { notes } = await r.soapNotes.list({
    organisationId: principal.organisationId,
    patientId,
    inClinics: clinicAccess(principal).only,
    completed: true,
    limit: DIAGNOSIS_NOTES_MAX,
    offset: 0,
  });
  const visits = notes
    .filter((n) => n.type !== "ADDENDUM")
    .sort((a, b) => a.serviceDateTime.getTime() - b.serviceDateTime.getTime() || a.id - b.id);
  return (await Promise.all(visits.map((n) => diagnosesOfNote(r, n)))).flat();
}

/** One recorded diagnosis by its id, or undefined (unknown, not completed, out of the principal's clinics). */
export async function recordedDiagnosis(
  r: NotesPort,
  principal: Principal,
  id: string,
): Promise<RecordedDiagnosis | undefined> {
  const m = /^(.+)-(\d{1,4})$/.exec(id);
  if (!m) return undefined;
  const note = await r.soapNotes.findByContextId(principal.organisationId, m[1]!);
  if (!note?.completed || note.type === "ADDENDUM" || !clinicAccess(principal).canSee(note.clinicId)) return undefined;
  return (await diagnosesOfNote(r, note)).find((d) => d.position === Number(m[2]));
}
