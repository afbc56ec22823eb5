import type { CaseRecord, CaseRepository, PatientCase, PaymentMode, TreatmentStatus } from "@openpractice/core";
import type { Insertable, Kysely, Selectable } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { CasesTable } from "../tables/cases.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { insertReturningId } from "./insert-returning-id.js";

const nullableNumber = (v: number | null) => (v === null ? null : Number(v));

function caseColumns(c: CaseRecord): Omit<Insertable<CasesTable>, "organisation_id" | "patient_id" | "created_at"> {
  return {
    clinic_id: c.clinicId,
    case_title: c.caseTitle,
    specialization: c.specialization,
    direct_access: c.directAccess ? 1 : 0,
    referring_physician_id: c.referrals.primary,
    secondary_referring_physician_id: c.referrals.secondary,
    tertiary_referring_physician_id: c.referrals.tertiary,
    icd_codes: JSON.stringify(c.icdCodes),
    treating_icd_codes: JSON.stringify(c.treatingIcdCodes),
    insurance_cards: JSON.stringify(c.insuranceCards),
    number_of_past_visits: c.numberOfPastVisits,
    treatment_status: c.treatmentStatus,
    treatment_start_date: c.treatmentStartDate,
    date_of_injury: c.dateOfInjury,
    date_of_surgery: c.dateOfSurgery,
    payment_mode: c.paymentMode,
    frequency_and_duration: c.frequencyAndDuration,
    visit_track_required: c.visitTrackRequired ? 1 : 0,
    case_visit_limit: c.caseVisitLimit,
    body_pain_notes: c.bodyPainNotes,
    affected_body_parts: JSON.stringify(c.affectedBodyParts),
    therapist_ids: JSON.stringify(c.therapistIds),
    updated_at: toDbTime(c.updatedAt),
  };
}

function rowToCase(r: Selectable<CasesTable>): PatientCase {
  return {
    id: Number(r.id),
    organisationId: Number(r.organisation_id),
    patientId: Number(r.patient_id),
    clinicId: nullableNumber(r.clinic_id),
    caseTitle: r.case_title,
    specialization: r.specialization,
    directAccess: Boolean(Number(r.direct_access)),
    referrals: {
      primary: nullableNumber(r.referring_physician_id),
      secondary: nullableNumber(r.secondary_referring_physician_id),
      tertiary: nullableNumber(r.tertiary_referring_physician_id),
    },
    icdCodes: JSON.parse(r.icd_codes),
    treatingIcdCodes: JSON.parse(r.treating_icd_codes),
    insuranceCards: JSON.parse(r.insurance_cards),
    numberOfPastVisits: Number(r.number_of_past_visits),
    treatmentStatus: r.treatment_status as TreatmentStatus,
    treatmentStartDate: r.treatment_start_date,
    dateOfInjury: r.date_of_injury,
    dateOfSurgery: r.date_of_surgery,
    paymentMode: r.payment_mode as PaymentMode | null,
    frequencyAndDuration: r.frequency_and_duration,
    visitTrackRequired: Boolean(Number(r.visit_track_required)),
    caseVisitLimit: Number(r.case_visit_limit),
    bodyPainNotes: r.body_pain_notes,
    affectedBodyParts: JSON.parse(r.affected_body_parts),
    therapistIds: JSON.parse(r.therapist_ids),
    createdAt: fromDbTime(r.created_at),
    updatedAt: fromDbTime(r.updated_at),
  };
}

export class KyselyCaseRepository implements CaseRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async insert(record: CaseRecord) {
    const id = await insertReturningId(this.db, this.profile, "cases", {
      organisation_id: record.organisationId,
      patient_id: record.patientId,
      created_at: toDbTime(record.createdAt),
      ...caseColumns(record),
    });
    return { ...structuredClone(record), id };
  }

  async findById(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("cases")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? rowToCase(row) : undefined;
  }

  async update(c: PatientCase) {
    await this.db
      .updateTable("cases")
      .set(caseColumns(c))
      .where("organisation_id", "=", c.organisationId)
      .where("id", "=", c.id)
      .execute();
  }

  async lockForVisits(organisationId: number, id: number) {
    // An UPDATE holds the row's write lock until the transaction ends (SQLite: the database write lock).
    const result = await this.db
      .updateTable("cases")
      .set((eb) => ({ visit_lock: eb("visit_lock", "+", 1) }))
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async listByPatient(organisationId: number, patientId: number) {
    const rows = await this.db
      .selectFrom("cases")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("patient_id", "=", patientId)
      .orderBy("id", "desc")
      .execute();
    return rows.map(rowToCase);
  }
}
