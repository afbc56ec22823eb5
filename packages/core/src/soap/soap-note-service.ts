import { soapEvent } from "./soap-events.js";
import { appointmentError } from "../appointments/appointment-errors.js";
import { caseError } from "../cases/case-errors.js";
import { systemError } from "../kernel/system-errors.js";
import { patientError } from "../patients/patient-errors.js";
import { soapError } from "./soap-errors.js";
import { clinicAccess } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError } from "../kernel/domain-error.js";
import type { Ids } from "../kernel/ids.js";
import { toPageWindow } from "../kernel/paging.js";
import type { SoapNoteCriteria } from "./soap-note-repository.js";
import type { Storage } from "../kernel/storage.js";
import type { SoapServiceRepositories } from "./soap-service-repositories.js";
import type { PatientCase } from "../cases/patient-case.js";
import { serviceCaseId } from "../kernel/service-case-id.js";
import { applyPartialResponse } from "./form-paths.js";
import { MEDICAL_RECORDS_PER_PATIENT, toMedicalRecord, type MedicalRecord } from "./medical-record.js";
import { assertNoteEditable, existingNote, lockedNote } from "./note-locks.js";
import { assertValidAssessment, assertValidNoteDraft, effectiveNoteType } from "./soap-rules.js";
import {
  ASSESSMENT_DIAGNOSIS_KEY,
  SOAP_NOTE_STATUSES,
  SOAP_SECTIONS,
  type FormSubmission,
  type SoapNote,
  type SoapNoteDraft,
  type SoapNoteStatus,
  type SoapSection,
} from "./soap-note.js";

const invalid = (field: string, reason: string, value?: unknown) =>
  DomainError.validation([{ field, reason, ...(value === undefined ? {} : { value }) }]);

export interface NoteSearch {
  patientId?: number | undefined;
  clinicId?: number | undefined;
  appointmentId?: number | undefined;
  serviceCaseId?: number | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  statuses?: string[] | undefined;
  completed?: boolean | undefined;
  page?: number | undefined;
  size?: number | undefined;
}

/** The identifiers a SOAP note event carries (spec 6.1). */
export function noteEventData(n: SoapNote) {
  return {
    organisation_id: n.organisationId,
    soap_note_id: n.contextId,
    patient_id: n.patientId,
    appointment_id: n.appointmentId,
    service_case_id: serviceCaseId(n.serviceCaseId),
  };
}

/** The case's codes as the Assessment's diagnosis section (filled in at creation, spec 4.1). */
function diagnosisFromCase(c: PatientCase | undefined, uuid: () => string): Record<string, unknown> {
  if (!c || (c.icdCodes.length === 0 && c.treatingIcdCodes.length === 0)) return {};
  return {
    Assessment: {
      [ASSESSMENT_DIAGNOSIS_KEY]: {
        medical_diagnosis: c.icdCodes.map((code, i) => ({
          uuid: uuid(),
          id: code.id,
          code: code.code,
          description: code.description ?? "",
          revision: "ICD10",
          billing_type: null,
          is_primary: i === 0,
        })),
        treating_diagnosis: c.treatingIcdCodes
          .map((code) => [code.code, code.description].filter(Boolean).join(" "))
          .join("; "),
        problem_list: [],
      },
    },
  };
}

/**
 * SOAP notes (spec 2.1, 4.1): creation with the six rules, reads, lists and
 * the versioned form submissions of each section.
 */
export class SoapNoteService {
  constructor(private readonly deps: { storage: Storage<SoapServiceRepositories>; clock: Clock; ids: Ids }) {}

  async create(principal: Principal, draft: SoapNoteDraft): Promise<SoapNote> {
    assertValidNoteDraft(draft);
    const orgId = principal.organisationId;
    const access = clinicAccess(principal);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      // Rule 3: the author is the token's user, and must be one of the organisation's providers.
      const provider =
        principal.userId === null ? undefined : await tx.organisations.findProvider(orgId, principal.userId);
      if (!provider)
        throw invalid(
          "rendering_physician",
          "the token's user_id is not a provider of this organisation",
          principal.userId,
        );
      const patient = await tx.patients.findById(orgId, draft.patientId);
      if (!patient) throw patientError("PATIENT_NOT_FOUND", "Patient not found", { patient_id: draft.patientId });
      const found = draft.appointmentId ? await tx.appointments.findById(orgId, draft.appointmentId) : undefined;
      const appointment = found && access.canSee(found.clinicId) ? found : undefined;
      if (draft.appointmentId && !appointment)
        throw appointmentError("APPOINTMENT_NOT_FOUND", "Appointment not found", {
          appointment_id: draft.appointmentId,
        });
      if (appointment?.status === "CANCELLED")
        throw appointmentError("APPOINTMENT_CANCELLED", "Appointment is cancelled", { appointment_id: appointment.id });
      if (appointment && appointment.patientId !== draft.patientId)
        throw invalid("appointment_id", "belongs to another patient", draft.appointmentId);
      // Rule 4: the case comes from the appointment when it is not sent.
      const caseId = draft.serviceCaseId ?? appointment?.serviceCaseId ?? null;
      const patientCase = caseId === null ? undefined : await tx.cases.findById(orgId, caseId);
      if (caseId !== null && (!patientCase || patientCase.patientId !== draft.patientId)) {
        throw caseError("CASE_NOT_FOUND", "Case not found for this patient", {
          service_case_id: serviceCaseId(caseId),
        });
      }
      const type = effectiveNoteType(draft);
      const parent = draft.parent ? await tx.soapNotes.findByContextId(orgId, draft.parent) : undefined;
      if (
        draft.parent &&
        (!parent ||
          !access.canSee(parent.clinicId) ||
          parent.patientId !== draft.patientId ||
          parent.status !== "COMPLETED")
      ) {
        throw invalid("parent", "must be the context_id of a COMPLETED note of the same patient", draft.parent);
      }
      const source = draft.dataCarryForwardFrom
        ? await tx.soapNotes.findByContextId(orgId, draft.dataCarryForwardFrom)
        : undefined;
      if (
        draft.dataCarryForwardFrom &&
        (!source || !access.canSee(source.clinicId) || source.patientId !== draft.patientId)
      ) {
        throw invalid(
          "data_carry_forward_from",
          "must be the context_id of a note of the same patient",
          draft.dataCarryForwardFrom,
        );
      }
      // Rule 2: the clinic comes from the session: the appointment's, else the patient's, else the doctor's first;
      // for a token restricted to clinics, the first of those within its clinics (so its author can read the note).
      const clinicId = [appointment?.clinicId, patient.clinicId, ...provider.clinicIds].find(
        (id): id is number => id != null && access.canSee(id),
      );
      if (clinicId === undefined)
        throw invalid(
          "clinic_id",
          access.only
            ? "cannot be resolved: neither the patient nor the doctor is at a clinic of the token's clinic_id_list"
            : "cannot be resolved: the doctor works at no clinic",
        );
      const contextId = this.deps.ids.uuid();
      const submissionIds = Object.fromEntries(SOAP_SECTIONS.map((s) => [s, `sub_${this.deps.ids.uuid()}`])) as Record<
        SoapSection,
        string
      >;
      const note = await tx.soapNotes.insert({
        contextId,
        organisationId: orgId,
        clinicId,
        patientId: draft.patientId,
        serviceCaseId: caseId,
        caseTitle: patientCase?.caseTitle ?? null,
        appointmentId: appointment?.id ?? null,
        type,
        category: draft.category ?? patientCase?.specialization ?? null,
        serviceDateTime: appointment?.startsAt ?? now,
        entryDateTime: now,
        status: "INCOMPLETED",
        completed: false,
        completedAt: null,
        renderingPhysician: provider.userId,
        supervisingPhysician: provider.supervisingUserId,
        submissionIds,
        treatmentSheetId: 0,
        planOfCareId: null,
        submitForBilling: false,
        billingStatus: null,
        summaryDocUrl: null,
        shortSummaryUrl: null,
        soapWithoutAppointment: !appointment,
        parent: parent?.contextId ?? null,
        dataCarryForwardFrom: source?.contextId ?? null,
        createdAt: now,
        updatedAt: now,
      });
      const carried = source ? await tx.soapNotes.formsOf(orgId, source.contextId) : [];
      const prefill = diagnosisFromCase(patientCase, () => this.deps.ids.uuid());
      await tx.soapNotes.insertForms(
        SOAP_SECTIONS.map((section) => {
          const copied = carried.find((f) => f.section === section)?.response ?? {};
          // Codes on the case fill the Assessment unless a carried-forward note already has diagnoses.
          const response =
            section === "Assessment" && copied.Assessment === undefined ? { ...copied, ...prefill } : copied;
          return {
            id: submissionIds[section],
            organisationId: orgId,
            contextId,
            section,
            version: 1,
            response: structuredClone(response),
            updatedAt: now,
          };
        }),
      );
      await tx.outbox.append(soapEvent("soap_note.created", noteEventData(note), now));
      return note;
    });
  }

  get(principal: Principal, contextId: string): Promise<SoapNote> {
    return existingNote(this.deps.storage.repositories, principal, contextId);
  }

  /**
   * Each patient's medical records (spec 2.5 `expand=medical_records`): its newest
   * COMPLETED notes, at most MEDICAL_RECORDS_PER_PATIENT, newest first. Two reads
   * for any number of patients: the notes of all of them, and the clinics' zones.
   */
  async medicalRecords(principal: Principal, patientIds: readonly number[]): Promise<Map<number, MedicalRecord[]>> {
    const r = this.deps.storage.repositories;
    const orgId = principal.organisationId;
    const records = new Map<number, MedicalRecord[]>(patientIds.map((id) => [id, []]));
    if (patientIds.length === 0) return records;
    const notes = await r.soapNotes.completedNotesOf(
      orgId,
      [...new Set(patientIds)],
      MEDICAL_RECORDS_PER_PATIENT,
      clinicAccess(principal).only,
    );
    if (notes.length === 0) return records;
    const zones = new Map((await r.organisations.listClinics(orgId)).map((c) => [c.id, c.timeZone]));
    for (const n of notes)
      records.get(n.patientId)?.push(toMedicalRecord(n, (clinicId) => zones.get(clinicId) ?? "UTC"));
    return records;
  }

  async search(
    principal: Principal,
    q: NoteSearch,
  ): Promise<{ notes: SoapNote[]; total: number; page: number; size: number }> {
    const { page, size, limit, offset } = toPageWindow(q.page, q.size);
    const statuses = q.statuses?.map((s) => s.trim().toUpperCase());
    const unknown = statuses?.find((s) => !(SOAP_NOTE_STATUSES as readonly string[]).includes(s));
    if (unknown !== undefined)
      throw DomainError.invalidParameter("status", unknown, `must be one or more of ${SOAP_NOTE_STATUSES.join(", ")}`);
    if (q.from && q.to && q.from.getTime() >= q.to.getTime())
      throw DomainError.invalidParameter("from", q.from.toISOString(), "must be before to");
    const criteria: SoapNoteCriteria = {
      organisationId: principal.organisationId,
      patientId: q.patientId,
      clinicId: q.clinicId,
      inClinics: clinicAccess(principal).only,
      appointmentId: q.appointmentId,
      serviceCaseId: q.serviceCaseId,
      from: q.from,
      to: q.to,
      statuses: statuses as SoapNoteStatus[] | undefined,
      completed: q.completed,
      limit,
      offset,
    };
    return { ...(await this.deps.storage.repositories.soapNotes.list(criteria)), page, size };
  }

  async form(principal: Principal, submissionId: string): Promise<FormSubmission> {
    const r = this.deps.storage.repositories;
    const missing = () =>
      soapError("FORM_SUBMISSION_NOT_FOUND", "Form submission not found", { submission_id: submissionId });
    const form = await r.soapNotes.findForm(principal.organisationId, submissionId);
    if (!form) throw missing();
    await existingNote(r, principal, form.contextId, missing);
    return form;
  }

  /**
   * Applies dot-notation paths to a section's form when `version` is the
   * current version plus 1 (compare-and-set: of two writers exactly one wins).
   * Only INCOMPLETED and REVISION notes take writes (assertNoteEditable).
   */
  async writeForm(
    principal: Principal,
    input: { submissionId: string; contextId: string; partialResponse: Record<string, unknown>; version: number },
  ): Promise<FormSubmission> {
    const orgId = principal.organisationId;
    for (const path of Object.keys(input.partialResponse)) {
      if (path !== "response" && !path.startsWith("response."))
        throw invalid(`partialResponse.${path}`, "must start with response.", path);
    }
    return this.deps.storage.transaction(async (tx: SoapServiceRepositories) => {
      const missing = () =>
        soapError("FORM_SUBMISSION_NOT_FOUND", "Form submission not found for this note", {
          submission_id: input.submissionId,
          context_id: input.contextId,
        });
      const form = await tx.soapNotes.findForm(orgId, input.submissionId);
      if (!form || form.contextId !== input.contextId) throw missing();
      // The note lock orders this write against signing, so a signature never covers half a write.
      const note = await lockedNote(tx, principal, form.contextId, missing);
      assertNoteEditable(note, "WRITE_FORM");
      const conflict = () =>
        systemError("VERSION_CONFLICT", `version must be the current version plus 1 (${form.version + 1})`, {
          submission_id: form.id,
          current_version: form.version,
          expected_version: form.version + 1,
          sent_version: input.version,
        });
      if (input.version !== form.version + 1) throw conflict();
      const next = applyPartialResponse({ response: form.response }, input.partialResponse);
      const response = (next.response ?? {}) as Record<string, unknown>;
      if (form.section === "Assessment") assertValidAssessment(response);
      const stored: FormSubmission = { ...form, response, version: input.version, updatedAt: this.deps.clock.now() };
      if (!(await tx.soapNotes.updateForm(stored))) throw conflict();
      return stored;
    });
  }
}
