import type { TreatmentLine, TreatmentSheet, TreatmentSheetRepository } from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { insertIgnoringDuplicate } from "../insert-ignoring-duplicate.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { TreatmentSheetsTable } from "../tables/soap.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const toSheet = (r: Selectable<TreatmentSheetsTable>): TreatmentSheet => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  contextId: r.context_id,
  patientId: Number(r.patient_id),
  treatments: JSON.parse(r.treatments),
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

export class KyselyTreatmentSheetRepository implements TreatmentSheetRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async insert(s: Omit<TreatmentSheet, "id">) {
    const values = {
      organisation_id: s.organisationId,
      context_id: s.contextId,
      patient_id: s.patientId,
      treatments: JSON.stringify(s.treatments),
      created_at: toDbTime(s.createdAt),
      updated_at: toDbTime(s.updatedAt),
    };
    // The unique key on the note decides between two creators; the loser writes nothing.
    if (
      !(await insertIgnoringDuplicate(this.db, this.profile, "treatment_sheets", values, [
        "organisation_id",
        "context_id",
      ]))
    )
      return undefined;
    return this.findByContextId(s.organisationId, s.contextId);
  }

  async findById(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("treatment_sheets")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toSheet(row) : undefined;
  }

  async findByContextId(organisationId: number, contextId: string) {
    const row = await this.db
      .selectFrom("treatment_sheets")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("context_id", "=", contextId)
      .executeTakeFirst();
    return row ? toSheet(row) : undefined;
  }

  async replaceTreatments(organisationId: number, id: number, treatments: TreatmentLine[], now: Date) {
    await this.db
      .updateTable("treatment_sheets")
      .set({ treatments: JSON.stringify(treatments), updated_at: toDbTime(now) })
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .execute();
  }
}
