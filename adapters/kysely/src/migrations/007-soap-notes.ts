import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/** SOAP notes and their section forms (versioned JSON documents). */
export function soapNotesMigration(profile: SqlDialectProfile): Migration {
  const id = (b: Parameters<SqlDialectProfile["autoIncrement"]>[0]) => profile.autoIncrement(b.primaryKey());
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("soap_notes")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("context_id", "varchar(40)", (c) => c.notNull().unique())
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("clinic_id", "integer", (c) => c.notNull())
        .addColumn("patient_id", "integer", (c) => c.notNull().references("patients.id"))
        .addColumn("service_case_id", "bigint")
        .addColumn("case_title", "varchar(200)")
        .addColumn("appointment_id", "integer")
        .addColumn("note_type", "varchar(20)", (c) => c.notNull())
        .addColumn("category", "varchar(30)")
        .addColumn("service_date_time", TIME, (c) => c.notNull())
        .addColumn("entry_date_time", TIME, (c) => c.notNull())
        .addColumn("status", "varchar(20)", (c) => c.notNull())
        .addColumn("completed", "integer", (c) => c.notNull())
        .addColumn("completed_at", TIME)
        .addColumn("rendering_physician", "bigint", (c) => c.notNull())
        .addColumn("supervising_physician", "bigint")
        .addColumn("submission_ids", "text", (c) => c.notNull())
        .addColumn("treatment_sheet_id", "integer", (c) => c.notNull())
        .addColumn("plan_of_care_id", "integer")
        .addColumn("submit_for_billing", "integer", (c) => c.notNull())
        .addColumn("summary_doc_url", "varchar(500)")
        .addColumn("short_summary_url", "varchar(500)")
        .addColumn("soap_without_appointment", "integer", (c) => c.notNull())
        .addColumn("parent", "varchar(40)")
        .addColumn("data_carry_forward_from", "varchar(40)")
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("soap_notes_org_patient_ix")
        .on("soap_notes")
        .columns(["organisation_id", "patient_id", "service_date_time"])
        .execute();
      await db.schema
        .createIndex("soap_notes_org_date_ix")
        .on("soap_notes")
        .columns(["organisation_id", "service_date_time", "id"])
        .execute();

      await db.schema
        .createTable("form_submissions")
        .addColumn("id", "varchar(44)", (c) => c.primaryKey())
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("context_id", "varchar(40)", (c) => c.notNull())
        .addColumn("section", "varchar(20)", (c) => c.notNull())
        .addColumn("version", "integer", (c) => c.notNull())
        .addColumn("response", "text", (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("form_submissions_context_ix")
        .on("form_submissions")
        .columns(["organisation_id", "context_id"])
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const t of ["form_submissions", "soap_notes"]) await db.schema.dropTable(t).execute();
    },
  };
}
