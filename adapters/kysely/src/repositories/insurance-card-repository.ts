import type {
  CoveragePriority,
  InsuranceCard,
  InsuranceCardRecord,
  InsuranceCardRepository,
  SubscriberRelationship,
} from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { InsuranceCardsTable } from "../tables/cases.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { insertReturningId } from "./insert-returning-id.js";

export const toCard = (r: Selectable<InsuranceCardsTable>): InsuranceCard => ({
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
  groupNumber: r.group_number,
  planName: r.plan_name,
  subscriber: {
    relationship: r.subscriber_relationship as SubscriberRelationship,
    firstName: r.subscriber_first_name,
    lastName: r.subscriber_last_name,
    dateOfBirth: r.subscriber_date_of_birth,
  },
  priority: r.coverage_priority as CoveragePriority | null,
  active: Number(r.active) === 1,
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at ?? r.created_at),
});

/** Every column a change writes. */
const changeable = (c: InsuranceCardRecord) => ({
  payer_reg_id: c.payer.payerRegId,
  payer_name: c.payer.name,
  payer_id: c.payer.payerId,
  insurance_number: c.insuranceNumber,
  plan_start_date: c.planStartDate,
  plan_end_date: c.planEndDate,
  group_number: c.groupNumber,
  plan_name: c.planName,
  subscriber_relationship: c.subscriber.relationship,
  subscriber_first_name: c.subscriber.firstName,
  subscriber_last_name: c.subscriber.lastName,
  subscriber_date_of_birth: c.subscriber.dateOfBirth,
  coverage_priority: c.priority,
  active: c.active ? 1 : 0,
  updated_at: toDbTime(c.updatedAt),
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
      created_at: toDbTime(c.createdAt),
      ...changeable(c),
    });
    return { ...structuredClone(c), id };
  }

  async listByPatient(organisationId: number, patientId: number) {
    const rows = await this.db
      .selectFrom("insurance_cards")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("patient_id", "=", patientId)
      .where("deleted_at", "is", null)
      .orderBy("id")
      .execute();
    return rows.map(toCard);
  }

  async findById(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("insurance_cards")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    return row ? toCard(row) : undefined;
  }

  async update(c: InsuranceCard) {
    await this.db
      .updateTable("insurance_cards")
      .set(changeable(c))
      .where("organisation_id", "=", c.organisationId)
      .where("id", "=", c.id)
      .execute();
  }

  async delete(organisationId: number, id: number, now: Date) {
    const result = await this.db
      .updateTable("insurance_cards")
      .set({ deleted_at: toDbTime(now) })
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .where("deleted_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
