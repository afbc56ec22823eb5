import type { PlanOfCare, PlanOfCareRepository, TherapyDiscipline } from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { PlansOfCareTable } from "../tables/soap.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { readForUpdate, readLatest } from "../contention.js";
import { insertIgnoringDuplicateReturningId } from "../insert-ignoring-duplicate.js";

const toPlan = (r: Selectable<PlansOfCareTable>): PlanOfCare => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  patientId: Number(r.patient_id),
  serviceCaseId: Number(r.case_key) === 0 ? null : Number(r.case_key),
  sourceContextId: r.source_context_id,
  diagnoses: JSON.parse(r.diagnoses),
  goals: JSON.parse(r.goals),
  frequencyAndDuration: r.frequency_and_duration,
  medicalNecessity: r.medical_necessity ?? null,
  discipline: (r.discipline ?? null) as TherapyDiscipline | null,
  certifiedOn: r.certified_on ?? null,
  certifiedBy: r.certified_by ?? null,
  certificationStart: r.certification_start,
  certificationEnd: r.certification_end,
  version: Number(r.version),
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

const content = (p: Omit<PlanOfCare, "id">) => ({
  source_context_id: p.sourceContextId,
  diagnoses: JSON.stringify(p.diagnoses),
  goals: JSON.stringify(p.goals),
  frequency_and_duration: p.frequencyAndDuration,
  medical_necessity: p.medicalNecessity,
  discipline: p.discipline,
  certified_on: p.certifiedOn,
  certified_by: p.certifiedBy,
  certification_start: p.certificationStart,
  certification_end: p.certificationEnd,
  version: p.version,
  updated_at: toDbTime(p.updatedAt),
});

export class KyselyPlanOfCareRepository implements PlanOfCareRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async findById(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("plans_of_care")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toPlan(row) : undefined;
  }

  async findFor(
    organisationId: number,
    patientId: number,
    serviceCaseId: number | null,
    options: { forUpdate?: boolean } = {},
  ) {
    const query = this.db
      .selectFrom("plans_of_care")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("patient_id", "=", patientId)
      .where("case_key", "=", serviceCaseId ?? 0);
    const row = await (options.forUpdate
      ? readForUpdate(this.profile, query)
      : readLatest(this.profile, query)
    ).executeTakeFirst();
    return row ? toPlan(row) : undefined;
  }

  async insert(p: Omit<PlanOfCare, "id">) {
    const values = {
      organisation_id: p.organisationId,
      patient_id: p.patientId,
      case_key: p.serviceCaseId ?? 0,
      created_at: toDbTime(p.createdAt),
      ...content(p),
    };
    const id = await insertIgnoringDuplicateReturningId(this.db, this.profile, "plans_of_care", values, [
      "organisation_id",
      "patient_id",
      "case_key",
    ]);
    return id === undefined ? undefined : { ...structuredClone(p), id };
  }

  async listOfCasesEndingFrom(organisationId: number, endingOnOrAfter: string, afterId: number, limit: number) {
    const rows = await this.db
      .selectFrom("plans_of_care")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("case_key", "<>", 0)
      .where("certification_end", ">=", endingOnOrAfter)
      .where("id", ">", afterId)
      .orderBy("id")
      .limit(limit)
      .execute();
    return rows.map(toPlan);
  }

  async update(p: PlanOfCare) {
    await this.db
      .updateTable("plans_of_care")
      .set(content(p))
      .where("organisation_id", "=", p.organisationId)
      .where("id", "=", p.id)
      .execute();
  }
}
