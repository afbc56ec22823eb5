import { sql, type Kysely, type Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/**
 * Signing and completing notes: the organisation's documentation settings,
 * a note row lock and billing status, signatures, the notes' audit trail,
 * treatment sheets (one per note), claims, plans of care and rendered summaries.
 */
export function soapCompletionMigration(profile: SqlDialectProfile): Migration {
  const id = (b: Parameters<SqlDialectProfile["autoIncrement"]>[0]) => profile.autoIncrement(b.primaryKey());
  const binary = profile.binaryColumnType();
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("organisations")
        .addColumn("billing_unit_rule", "varchar(20)", (c) => c.notNull().defaultTo("cms_8_minute"))
        .execute();
      await db.schema
        .alterTable("organisations")
        .addColumn("require_cosign", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema
        .alterTable("organisations")
        .addColumn("auto_submit_billing", "integer", (c) => c.notNull().defaultTo(0))
        .execute();
      await db.schema.alterTable("soap_notes").addColumn("billing_status", "varchar(30)").execute();
      await db.schema
        .alterTable("soap_notes")
        .addColumn("row_lock", "integer", (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable("soap_signatures")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("context_id", "varchar(40)", (c) => c.notNull())
        .addColumn("role", "varchar(10)", (c) => c.notNull())
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("content_hash", "varchar(80)", (c) => c.notNull())
        .addColumn("signed_at", TIME, (c) => c.notNull())
        .addColumn("revoked_at", TIME)
        .addColumn("revoked_reason", "varchar(2100)")
        .execute();
      await db.schema
        .createIndex("soap_signatures_note_ix")
        .on("soap_signatures")
        .columns(["organisation_id", "context_id"])
        .execute();

      await db.schema
        .createTable("soap_note_history")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("context_id", "varchar(40)", (c) => c.notNull())
        .addColumn("action", "varchar(30)", (c) => c.notNull())
        .addColumn("from_status", "varchar(20)")
        .addColumn("to_status", "varchar(20)", (c) => c.notNull())
        .addColumn("actor_user_id", "bigint")
        .addColumn("at", TIME, (c) => c.notNull())
        .addColumn("details", "text", (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("soap_note_history_note_ix")
        .on("soap_note_history")
        .columns(["organisation_id", "context_id"])
        .execute();

      await db.schema
        .createTable("treatment_sheets")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("context_id", "varchar(40)", (c) => c.notNull())
        .addColumn("patient_id", "integer", (c) => c.notNull())
        .addColumn("treatments", "text", (c) => c.notNull())
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .addUniqueConstraint("treatment_sheets_note_uq", ["organisation_id", "context_id"])
        .execute();

      await db.schema
        .createTable("claims")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("context_id", "varchar(40)", (c) => c.notNull())
        .addColumn("patient_id", "integer", (c) => c.notNull())
        .addColumn("service_case_id", "bigint")
        .addColumn("service_date", "varchar(10)", (c) => c.notNull())
        .addColumn("rendering_physician", "bigint", (c) => c.notNull())
        .addColumn("diagnosis_codes", "text", (c) => c.notNull())
        .addColumn("lines", "text", (c) => c.notNull())
        .addColumn("status", "varchar(30)", (c) => c.notNull())
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addUniqueConstraint("claims_note_uq", ["organisation_id", "context_id"])
        .execute();

      await db.schema
        .createTable("plans_of_care")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("patient_id", "integer", (c) => c.notNull())
        // 0 for a patient's plan without a case: a unique key over NULL would not hold on every engine.
        .addColumn("case_key", "bigint", (c) => c.notNull())
        .addColumn("source_context_id", "varchar(40)", (c) => c.notNull())
        .addColumn("diagnoses", "text", (c) => c.notNull())
        .addColumn("goals", "text", (c) => c.notNull())
        .addColumn("frequency_and_duration", "varchar(500)")
        .addColumn("certification_start", "varchar(10)", (c) => c.notNull())
        .addColumn("certification_end", "varchar(10)", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .addUniqueConstraint("plans_of_care_case_uq", ["organisation_id", "patient_id", "case_key"])
        .execute();

      await db.schema
        .createTable("soap_documents")
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("context_id", "varchar(40)", (c) => c.notNull())
        .addColumn("variant", "varchar(10)", (c) => c.notNull())
        .addColumn("content_type", "varchar(60)", (c) => c.notNull())
        .addColumn("content", binary, (c) => c.notNull())
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addPrimaryKeyConstraint("soap_documents_pk", ["organisation_id", "context_id", "variant"])
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const t of [
        "soap_documents",
        "plans_of_care",
        "claims",
        "treatment_sheets",
        "soap_note_history",
        "soap_signatures",
      ])
        await db.schema.dropTable(t).execute();
      for (const c of ["row_lock", "billing_status"]) await db.schema.alterTable("soap_notes").dropColumn(c).execute();
      for (const c of ["auto_submit_billing", "require_cosign", "billing_unit_rule"])
        await db.schema.alterTable("organisations").dropColumn(c).execute();
    },
  };
}
