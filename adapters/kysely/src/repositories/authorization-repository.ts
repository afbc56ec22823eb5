import type {
  Authorization,
  AuthorizationRecord,
  AuthorizationRepository,
  AuthorizationSearch,
  AuthorizationStatus,
} from "@openpractice/core";
import { sql, type Insertable, type Kysely, type Selectable } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { AuthorizationsTable } from "../tables/cases.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { insertReturningId } from "./insert-returning-id.js";
import { containsPattern } from "./contains-pattern.js";

function columns(
  a: AuthorizationRecord,
): Omit<Insertable<AuthorizationsTable>, "organisation_id" | "case_id" | "patient_id" | "created_at"> {
  return {
    coverage_id: a.coverageId,
    reference_number: a.referenceNumber,
    payer_name: a.payerName,
    payer_id: a.payerId,
    plan_start_date: a.planStartDate,
    plan_end_date: a.planEndDate,
    effective_start_date: a.effectiveStartDate,
    effective_end_date: a.effectiveEndDate,
    authorized_visits: a.authorizedVisits,
    previously_consumed_visits: a.previouslyConsumedVisits,
    status: a.status,
    icd_codes: JSON.stringify(a.icdCodes),
    cpt_details: JSON.stringify(a.cptCodeAuthorizationDetails),
    updated_at: toDbTime(a.updatedAt),
  };
}

const toAuthorization = (r: Selectable<AuthorizationsTable>): Authorization => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  caseId: Number(r.case_id),
  patientId: Number(r.patient_id),
  coverageId: r.coverage_id === null ? null : Number(r.coverage_id),
  referenceNumber: r.reference_number,
  payerName: r.payer_name,
  payerId: r.payer_id,
  planStartDate: r.plan_start_date,
  planEndDate: r.plan_end_date,
  effectiveStartDate: r.effective_start_date,
  effectiveEndDate: r.effective_end_date,
  authorizedVisits: Number(r.authorized_visits),
  previouslyConsumedVisits: Number(r.previously_consumed_visits),
  status: r.status as AuthorizationStatus,
  icdCodes: JSON.parse(r.icd_codes),
  cptCodeAuthorizationDetails: JSON.parse(r.cpt_details),
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

export class KyselyAuthorizationRepository implements AuthorizationRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async insert(a: AuthorizationRecord) {
    const id = await insertReturningId(this.db, this.profile, "authorizations", {
      organisation_id: a.organisationId,
      case_id: a.caseId,
      patient_id: a.patientId,
      created_at: toDbTime(a.createdAt),
      ...columns(a),
    });
    return { ...structuredClone(a), id };
  }

  async findById(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("authorizations")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toAuthorization(row) : undefined;
  }

  async update(a: Authorization) {
    await this.db
      .updateTable("authorizations")
      .set(columns(a))
      .where("organisation_id", "=", a.organisationId)
      .where("id", "=", a.id)
      .execute();
  }

  async delete(organisationId: number, id: number) {
    const result = await this.db
      .deleteFrom("authorizations")
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async listByCase(organisationId: number, caseId: number) {
    const rows = await this.db
      .selectFrom("authorizations")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("case_id", "=", caseId)
      .orderBy("effective_start_date")
      .orderBy("id")
      .execute();
    return rows.map(toAuthorization);
  }

  async search(c: AuthorizationSearch) {
    let q = this.db
      .selectFrom("authorizations as a")
      .innerJoin("patients as p", "p.id", "a.patient_id")
      .where("a.organisation_id", "=", c.organisationId);
    for (const term of c.patientTerms)
      q = q.where(sql<boolean>`p.search_text like ${containsPattern(term)} escape ${"\\"}`);
    if (c.referenceNumber)
      q = q.where(
        sql<boolean>`lower(a.reference_number) like ${containsPattern(c.referenceNumber.toLowerCase())} escape ${"\\"}`,
      );
    if (c.caseId !== undefined) q = q.where("a.case_id", "=", c.caseId);
    const [rows, counted] = await Promise.all([
      q.selectAll("a").orderBy("a.id", "desc").limit(c.limit).offset(c.offset).execute(),
      q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { authorizations: rows.map(toAuthorization), total: Number(counted.n) };
  }
}
