import type { InsuranceCard, InsuranceCardRecord, InsuranceCardRepository } from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { fromDbTime, toDbTime, type Database, type InsuranceCardsTable } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { insertReturningId } from "./insert-returning-id.js";

const toCard = (r: Selectable<InsuranceCardsTable>): InsuranceCard => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  patientId: Number(r.patient_id),
  payer: {
    payerRegId: r.payer_reg_id === null ? null : Number(r.payer_reg_id),
    name: r.payer_name,
    payerId: r.payer_id,
  },
  insuranceNumber: r.insurance_number,
  planStartDate: r.plan_start_date,
  planEndDate: r.plan_end_date,
  createdAt: fromDbTime(r.created_at),
});

export class KyselyInsuranceCardRepository implements InsuranceCardRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async insert(c: InsuranceCardRecord) {
    const id = await insertReturningId(this.db, this.profile, "insurance_cards", {
      organisation_id: c.organisationId,
      patient_id: c.patientId,
      payer_reg_id: c.payer.payerRegId,
      payer_name: c.payer.name,
      payer_id: c.payer.payerId,
      insurance_number: c.insuranceNumber,
      plan_start_date: c.planStartDate,
      plan_end_date: c.planEndDate,
      created_at: toDbTime(c.createdAt),
    });
    return { ...structuredClone(c), id };
  }

  async listByPatient(organisationId: number, patientId: number) {
    const rows = await this.db
      .selectFrom("insurance_cards")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("patient_id", "=", patientId)
      .orderBy("id")
      .execute();
    return rows.map(toCard);
  }
}
