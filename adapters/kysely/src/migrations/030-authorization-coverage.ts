import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

/**
 * v2 grants an authorization under one of the patient's coverages (spec 4.7:
 * /v2/cases/{id}/coverages/{id}/authorizations); existing authorizations, written on v1, name none.
 */
export function authorizationCoverageMigration(_profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema.alterTable("authorizations").addColumn("coverage_id", "integer").execute();
    },
    async down(db: Kysely<any>) {
      await db.schema.alterTable("authorizations").dropColumn("coverage_id").execute();
    },
  };
}
