import type {
  CompletedNoteDigest,
  FormSubmission,
  SignatureRole,
  SoapNote,
  SoapNoteChanges,
  SoapNoteCriteria,
  SoapNoteHistoryEntry,
  SoapNoteRecord,
  SoapNoteRepository,
  SoapNoteStatus,
  SoapNoteType,
  SoapSection,
  SoapSignature,
  SummaryStatus,
} from "@openpractice/core";
import type { Kysely, Selectable, SelectQueryBuilder } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { FormSubmissionsTable, SoapNotesTable, SoapSignaturesTable } from "../tables/soap.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { slices } from "../batches.js";
import { insertReturningId } from "./insert-returning-id.js";

const num = (v: number | null) => (v === null ? null : Number(v));

export const toNote = (r: Selectable<SoapNotesTable>): SoapNote => ({
  id: Number(r.id),
  contextId: r.context_id,
  organisationId: Number(r.organisation_id),
  clinicId: Number(r.clinic_id),
  patientId: Number(r.patient_id),
  serviceCaseId: num(r.service_case_id),
  caseTitle: r.case_title,
  appointmentId: num(r.appointment_id),
  type: r.note_type as SoapNoteType,
  category: r.category,
  serviceDateTime: fromDbTime(r.service_date_time),
  entryDateTime: fromDbTime(r.entry_date_time),
  status: r.status as SoapNoteStatus,
  completed: Boolean(Number(r.completed)),
  completedAt: r.completed_at ? fromDbTime(r.completed_at) : null,
  renderingPhysician: Number(r.rendering_physician),
  supervisingPhysician: num(r.supervising_physician),
  submissionIds: JSON.parse(r.submission_ids),
  treatmentSheetId: Number(r.treatment_sheet_id),
  planOfCareId: num(r.plan_of_care_id),
  submitForBilling: Boolean(Number(r.submit_for_billing)),
  billingStatus: r.billing_status,
  summaryDocUrl: r.summary_doc_url,
  shortSummaryUrl: r.short_summary_url,
  summaryStatus: r.summary_status as SummaryStatus | null,
  summaryFailure: r.summary_failure,
  soapWithoutAppointment: Boolean(Number(r.soap_without_appointment)),
  parent: r.parent,
  dataCarryForwardFrom: r.data_carry_forward_from,
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

const toForm = (r: Selectable<FormSubmissionsTable>): FormSubmission => ({
  id: r.id,
  organisationId: Number(r.organisation_id),
  contextId: r.context_id,
  section: r.section as SoapSection,
  version: Number(r.version),
  response: JSON.parse(r.response),
  updatedAt: fromDbTime(r.updated_at),
});

const toSignature = (r: Selectable<SoapSignaturesTable>): SoapSignature => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  contextId: r.context_id,
  role: r.role as SignatureRole,
  userId: Number(r.user_id),
  contentHash: r.content_hash,
  signedAt: fromDbTime(r.signed_at),
  revokedAt: r.revoked_at ? fromDbTime(r.revoked_at) : null,
  revokedReason: r.revoked_reason,
});

function applyFilters<O>(q: SelectQueryBuilder<Database, "soap_notes", O>, c: SoapNoteCriteria) {
  let out = q.where("organisation_id", "=", c.organisationId);
  if (c.patientId !== undefined) out = out.where("patient_id", "=", c.patientId);
  if (c.clinicId !== undefined) out = out.where("clinic_id", "=", c.clinicId);
  if (c.inClinics) out = out.where("clinic_id", "in", [...c.inClinics]);
  if (c.appointmentId !== undefined) out = out.where("appointment_id", "=", c.appointmentId);
  if (c.serviceCaseId !== undefined) out = out.where("service_case_id", "=", c.serviceCaseId);
  if (c.from) out = out.where("service_date_time", ">=", toDbTime(c.from));
  if (c.to) out = out.where("service_date_time", "<", toDbTime(c.to));
  if (c.statuses?.length) out = out.where("status", "in", c.statuses);
  if (c.completed !== undefined) out = out.where("completed", "=", c.completed ? 1 : 0);
  return out;
}

export class KyselySoapNoteRepository implements SoapNoteRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async insert(n: SoapNoteRecord) {
    const id = await insertReturningId(this.db, this.profile, "soap_notes", {
      context_id: n.contextId,
      organisation_id: n.organisationId,
      clinic_id: n.clinicId,
      patient_id: n.patientId,
      service_case_id: n.serviceCaseId,
      case_title: n.caseTitle,
      appointment_id: n.appointmentId,
      note_type: n.type,
      category: n.category,
      service_date_time: toDbTime(n.serviceDateTime),
      entry_date_time: toDbTime(n.entryDateTime),
      status: n.status,
      completed: n.completed ? 1 : 0,
      completed_at: n.completedAt ? toDbTime(n.completedAt) : null,
      rendering_physician: n.renderingPhysician,
      supervising_physician: n.supervisingPhysician,
      submission_ids: JSON.stringify(n.submissionIds),
      treatment_sheet_id: n.treatmentSheetId,
      plan_of_care_id: n.planOfCareId,
      submit_for_billing: n.submitForBilling ? 1 : 0,
      billing_status: n.billingStatus,
      summary_doc_url: n.summaryDocUrl,
      short_summary_url: n.shortSummaryUrl,
      summary_status: n.summaryStatus ?? null,
      summary_failure: n.summaryFailure ?? null,
      soap_without_appointment: n.soapWithoutAppointment ? 1 : 0,
      parent: n.parent,
      data_carry_forward_from: n.dataCarryForwardFrom,
      created_at: toDbTime(n.createdAt),
      updated_at: toDbTime(n.updatedAt),
    });
    return {
      ...structuredClone(n),
      summaryStatus: n.summaryStatus ?? null,
      summaryFailure: n.summaryFailure ?? null,
      id,
    };
  }

  async findByContextId(organisationId: number, contextId: string) {
    const row = await this.db
      .selectFrom("soap_notes")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("context_id", "=", contextId)
      .executeTakeFirst();
    return row ? toNote(row) : undefined;
  }

  async list(c: SoapNoteCriteria) {
    const base = this.db.selectFrom("soap_notes");
    const [rows, counted] = await Promise.all([
      applyFilters(base.selectAll(), c)
        .orderBy("service_date_time", "desc")
        .orderBy("id", "desc")
        .limit(c.limit)
        .offset(c.offset)
        .execute(),
      applyFilters(
        base.select((eb) => eb.fn.countAll().as("n")),
        c,
      ).executeTakeFirstOrThrow(),
    ]);
    return { notes: rows.map(toNote), total: Number(counted.n) };
  }

  async insertForms(forms: FormSubmission[]) {
    if (forms.length === 0) return;
    await this.db
      .insertInto("form_submissions")
      .values(
        forms.map((f) => ({
          id: f.id,
          organisation_id: f.organisationId,
          context_id: f.contextId,
          section: f.section,
          version: f.version,
          response: JSON.stringify(f.response),
          updated_at: toDbTime(f.updatedAt),
        })),
      )
      .execute();
  }

  async findForm(organisationId: number, id: string) {
    const row = await this.db
      .selectFrom("form_submissions")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toForm(row) : undefined;
  }

  async formsOf(organisationId: number, contextId: string) {
    const rows = await this.db
      .selectFrom("form_submissions")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("context_id", "=", contextId)
      .execute();
    return rows.map(toForm);
  }

  async updateForm(f: FormSubmission) {
    const result = await this.db
      .updateTable("form_submissions")
      .set({ response: JSON.stringify(f.response), version: f.version, updated_at: toDbTime(f.updatedAt) })
      .where("organisation_id", "=", f.organisationId)
      .where("id", "=", f.id)
      .where("version", "=", f.version - 1)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async completedNotesOf(
    organisationId: number,
    patientIds: readonly number[],
    perPatient: number,
    inClinics?: readonly number[],
  ) {
    const out: CompletedNoteDigest[] = [];
    // A page of patients is one slice; the ranking picks each patient's newest notes before any form is read.
    for (const ids of slices(patientIds, 500)) {
      let ranked = this.db
        .selectFrom("soap_notes")
        .select(["id", "context_id", "patient_id", "clinic_id", "service_date_time", "rendering_physician"])
        .select((eb) =>
          eb.fn
            .agg<number>("row_number")
            .over((w) => w.partitionBy("patient_id").orderBy("service_date_time", "desc").orderBy("id", "desc"))
            .as("recency"),
        )
        .where("organisation_id", "=", organisationId)
        .where("patient_id", "in", ids)
        .where("status", "=", "COMPLETED");
      if (inClinics) ranked = ranked.where("clinic_id", "in", [...inClinics]);
      const rows = await this.db
        .selectFrom(ranked.as("n"))
        .leftJoin("form_submissions as f", (j) =>
          j
            .onRef("f.context_id", "=", "n.context_id")
            .on("f.organisation_id", "=", organisationId)
            .on("f.section", "=", "Assessment"),
        )
        .select([
          "n.context_id",
          "n.patient_id",
          "n.clinic_id",
          "n.service_date_time",
          "n.rendering_physician",
          "f.response",
        ])
        .where("n.recency", "<=", perPatient)
        .orderBy("n.patient_id")
        .orderBy("n.recency")
        .execute();
      for (const r of rows) {
        out.push({
          contextId: r.context_id,
          patientId: Number(r.patient_id),
          clinicId: Number(r.clinic_id),
          serviceDateTime: fromDbTime(r.service_date_time),
          renderingPhysician: Number(r.rendering_physician),
          assessment: r.response ? JSON.parse(r.response) : {},
        });
      }
    }
    return out;
  }

  async lockNote(organisationId: number, contextId: string) {
    // An UPDATE holds the row's write lock until the transaction ends (SQLite: the database write lock).
    const result = await this.db
      .updateTable("soap_notes")
      .set((eb) => ({ row_lock: eb("row_lock", "+", 1) }))
      .where("organisation_id", "=", organisationId)
      .where("context_id", "=", contextId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0 ? this.findByContextId(organisationId, contextId) : undefined;
  }

  async updateNote(organisationId: number, contextId: string, c: SoapNoteChanges) {
    const set: Partial<Record<keyof SoapNotesTable, unknown>> = { updated_at: toDbTime(c.updatedAt) };
    if (c.status !== undefined) set.status = c.status;
    if (c.completed !== undefined) set.completed = c.completed ? 1 : 0;
    if (c.completedAt !== undefined) set.completed_at = c.completedAt ? toDbTime(c.completedAt) : null;
    if (c.treatmentSheetId !== undefined) set.treatment_sheet_id = c.treatmentSheetId;
    if (c.planOfCareId !== undefined) set.plan_of_care_id = c.planOfCareId;
    if (c.submitForBilling !== undefined) set.submit_for_billing = c.submitForBilling ? 1 : 0;
    if (c.billingStatus !== undefined) set.billing_status = c.billingStatus;
    if (c.summaryDocUrl !== undefined) set.summary_doc_url = c.summaryDocUrl;
    if (c.shortSummaryUrl !== undefined) set.short_summary_url = c.shortSummaryUrl;
    if (c.summaryStatus !== undefined) set.summary_status = c.summaryStatus;
    if (c.summaryFailure !== undefined) set.summary_failure = c.summaryFailure;
    await this.db
      .updateTable("soap_notes")
      .set(set as any)
      .where("organisation_id", "=", organisationId)
      .where("context_id", "=", contextId)
      .execute();
  }

  async addSignature(sig: Omit<SoapSignature, "id" | "revokedAt" | "revokedReason">) {
    const id = await insertReturningId(this.db, this.profile, "soap_signatures", {
      organisation_id: sig.organisationId,
      context_id: sig.contextId,
      role: sig.role,
      user_id: sig.userId,
      content_hash: sig.contentHash,
      signed_at: toDbTime(sig.signedAt),
      revoked_at: null,
      revoked_reason: null,
    });
    return { ...sig, id, revokedAt: null, revokedReason: null };
  }

  async signaturesOf(organisationId: number, contextId: string, options: { includeRevoked?: boolean } = {}) {
    let q = this.db
      .selectFrom("soap_signatures")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("context_id", "=", contextId);
    if (!options.includeRevoked) q = q.where("revoked_at", "is", null);
    return (await q.orderBy("id").execute()).map(toSignature);
  }

  async revokeSignatures(organisationId: number, contextId: string, roles: SignatureRole[], at: Date, reason: string) {
    if (roles.length === 0) return 0;
    const result = await this.db
      .updateTable("soap_signatures")
      .set({ revoked_at: toDbTime(at), revoked_reason: reason.slice(0, 2100) })
      .where("organisation_id", "=", organisationId)
      .where("context_id", "=", contextId)
      .where("role", "in", roles)
      .where("revoked_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async appendHistory(e: SoapNoteHistoryEntry) {
    await this.db
      .insertInto("soap_note_history")
      .values({
        organisation_id: e.organisationId,
        context_id: e.contextId,
        action: e.action,
        from_status: e.fromStatus,
        to_status: e.toStatus,
        actor_user_id: e.actorUserId,
        at: toDbTime(e.at),
        details: JSON.stringify(e.details),
      })
      .execute();
  }

  async historyOf(organisationId: number, contextId: string) {
    const rows = await this.db
      .selectFrom("soap_note_history")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("context_id", "=", contextId)
      .orderBy("id")
      .execute();
    return rows.map(
      (r): SoapNoteHistoryEntry => ({
        organisationId: Number(r.organisation_id),
        contextId: r.context_id,
        action: r.action,
        fromStatus: r.from_status,
        toStatus: r.to_status,
        actorUserId: r.actor_user_id === null ? null : Number(r.actor_user_id),
        at: fromDbTime(r.at),
        details: JSON.parse(r.details),
      }),
    );
  }
}
