import type {
  EligibilityCheck,
  EligibilityCheckRecord,
  EligibilityCheckRepository,
  EligibilityCheckStatus,
} from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import type { EligibilityChecksTable } from "../tables/eligibility.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { insertReturningId } from "./insert-returning-id.js";

const toCheck = (r: Selectable<EligibilityChecksTable>): EligibilityCheck => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  patientId: Number(r.patient_id),
  coverageId: Number(r.coverage_id),
  source: r.source as EligibilityCheck["source"],
  status: r.status as EligibilityCheckStatus,
  serviceDate: r.service_date,
  result: r.result === null ? null : JSON.parse(r.result),
  rejections: JSON.parse(r.rejections),
  errorCode: r.error_code,
  errorMessage: r.error_message,
  request: r.request_x12,
  response: r.response_x12,
  reference: r.reference,
  notes: r.notes,
  checkedBy: r.checked_by === null ? null : Number(r.checked_by),
  checkedAt: fromDbTime(r.checked_at),
});

export class KyselyEligibilityCheckRepository implements EligibilityCheckRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  insert(c: EligibilityCheckRecord) {
    return insertReturningId(this.db, this.profile, "eligibility_checks", {
      organisation_id: c.organisationId,
      patient_id: c.patientId,
      coverage_id: c.coverageId,
      source: c.source,
      status: c.status,
      service_date: c.serviceDate,
      result: c.result === null ? null : JSON.stringify(c.result),
      rejections: JSON.stringify(c.rejections),
      error_code: c.errorCode,
      // The column's bound: a transport's message may quote a long answer.
      error_message: c.errorMessage?.slice(0, 1000) ?? null,
      request_x12: c.request,
      response_x12: c.response,
      reference: c.reference,
      notes: c.notes,
      checked_by: c.checkedBy,
      checked_at: toDbTime(c.checkedAt),
    });
  }

  async listByCoverage(organisationId: number, coverageId: number, page: { limit: number; offset: number }) {
    const of = this.db
      .selectFrom("eligibility_checks")
      .where("organisation_id", "=", organisationId)
      .where("coverage_id", "=", coverageId);
    const [rows, counted] = await Promise.all([
      of.selectAll().orderBy("id", "desc").limit(page.limit).offset(page.offset).execute(),
      of.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { checks: rows.map(toCheck), total: Number(counted.n) };
  }

  async latestAnswered(organisationId: number, coverageIds: readonly number[]) {
    if (coverageIds.length === 0) return [];
    const answered = (db: Kysely<Database>) =>
      db
        .selectFrom("eligibility_checks")
        .where("organisation_id", "=", organisationId)
        .where("coverage_id", "in", [...coverageIds])
        .where("status", "in", ["active", "inactive"]);
    // One statement for every coverage of a case: the newest answered check of each (its largest id).
    const rows = await answered(this.db)
      .selectAll()
      .where(
        "id",
        "in",
        answered(this.db)
          .select((eb) => eb.fn.max("id").as("id"))
          .groupBy("coverage_id"),
      )
      .execute();
    return rows.map(toCheck);
  }
}
