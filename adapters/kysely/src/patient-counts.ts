import type { PatientListCriteria } from "@openpractice/core";
import { sql, type Kysely } from "kysely";
import type { PatientCountIndex } from "./sql-dialect-profile.js";

/**
 * `patient_counts (organisation_id, status, shard, patients)`: exact patient
 * counts per organisation and status that an engine's triggers keep in the
 * writer's transaction (PostgreSQL: migration 034, MySQL/MariaDB: 035), split
 * over shards so concurrent writers in one organisation do not queue on one
 * counter row; a count is the sum of its shards. The reading side is the same
 * SQL on every engine, here.
 */
export const PATIENT_COUNTS_TABLE = "patient_counts";

/** The counts table of either engine's migration (the triggers that keep it are the engine's own). */
export function createPatientCountsTable(db: Kysely<any>) {
  return db.schema
    .createTable(PATIENT_COUNTS_TABLE)
    .addColumn("organisation_id", "bigint", (c) => c.notNull())
    .addColumn("status", "varchar(10)", (c) => c.notNull())
    .addColumn("shard", "smallint", (c) => c.notNull())
    .addColumn("patients", "bigint", (c) => c.notNull())
    .addPrimaryKeyConstraint("patient_counts_pkey", ["organisation_id", "status", "shard"])
    .execute();
}

/** The organisation's patients of `status` ("all": every status), from the kept counts. */
export async function keptOrganisationSize(
  db: Kysely<any>,
  organisationId: number,
  status: PatientListCriteria["status"],
): Promise<number> {
  let query = db
    .selectFrom(PATIENT_COUNTS_TABLE)
    .select(sql<string>`coalesce(sum(patients), 0)`.as("n"))
    .where("organisation_id", "=", organisationId);
  if (status !== "all") query = query.where("status", "=", status);
  return Number((await query.executeTakeFirstOrThrow()).n);
}

/** The organisation's exact count for a list without search or date bounds, from the kept counts. */
export const keptPatientCounts: PatientCountIndex = {
  async total(db: Kysely<any>, c: PatientListCriteria) {
    if (c.searchTerms.length > 0 || c.createdFrom || c.createdBefore || c.updatedFrom || c.updatedBefore)
      return undefined;
    return keptOrganisationSize(db, c.organisationId, c.status);
  },
};
