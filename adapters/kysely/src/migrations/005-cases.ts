import type { Kysely, Migration } from "kysely";
import { dropIndexOf, type SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";
const DATE = "varchar(10)";

/**
 * Referring physicians, insurance cards, cases and authorizations, and the
 * clinic's visit-limit warning setting. Lists (ICD codes, card copies, body
 * parts) are JSON text: they are read and written whole, never queried.
 */
export function casesMigration(profile: SqlDialectProfile): Migration {
  const id = (b: Parameters<SqlDialectProfile["autoIncrement"]>[0]) => profile.autoIncrement(b.primaryKey());
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .alterTable("clinics")
        .addColumn("visit_limit_warning_only", "integer", (c) => c.notNull().defaultTo(0))
        .execute();

      await db.schema
        .createTable("referring_physicians")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("first_name", "varchar(100)", (c) => c.notNull())
        .addColumn("last_name", "varchar(100)", (c) => c.notNull())
        .addColumn("npi", "varchar(10)")
        .addColumn("phone_number", "varchar(30)")
        .addColumn("fax_number", "varchar(30)")
        .addColumn("address1", "varchar(200)")
        .addColumn("address2", "varchar(200)")
        .addColumn("city", "varchar(200)")
        .addColumn("state", "varchar(2)")
        .addColumn("zip", "varchar(10)")
        .addColumn("search_text", "varchar(300)", (c) => c.notNull())
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        // NULL NPIs do not collide on any engine; a known NPI is one physician per organisation.
        .addUniqueConstraint("referring_physicians_org_npi_uq", ["organisation_id", "npi"])
        .execute();
      await db.schema
        .createIndex("referring_physicians_org_last_ix")
        .on("referring_physicians")
        .columns(["organisation_id", "last_name", "id"])
        .execute();

      await db.schema
        .createTable("insurance_cards")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("patient_id", "integer", (c) => c.notNull().references("patients.id"))
        .addColumn("payer_reg_id", "bigint")
        .addColumn("payer_name", "varchar(200)", (c) => c.notNull())
        .addColumn("payer_id", "varchar(50)")
        .addColumn("insurance_number", "varchar(50)", (c) => c.notNull())
        .addColumn("plan_start_date", DATE)
        .addColumn("plan_end_date", DATE)
        .addColumn("created_at", TIME, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("insurance_cards_org_patient_ix")
        .on("insurance_cards")
        .columns(["organisation_id", "patient_id", "id"])
        .execute();

      await db.schema
        .createTable("cases")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("patient_id", "integer", (c) => c.notNull().references("patients.id"))
        .addColumn("clinic_id", "integer", (c) => c.references("clinics.id"))
        .addColumn("case_title", "varchar(200)", (c) => c.notNull())
        .addColumn("specialization", "varchar(30)", (c) => c.notNull())
        .addColumn("direct_access", "integer", (c) => c.notNull())
        .addColumn("referring_physician_id", "integer", (c) => c.references("referring_physicians.id"))
        .addColumn("secondary_referring_physician_id", "integer", (c) => c.references("referring_physicians.id"))
        .addColumn("tertiary_referring_physician_id", "integer", (c) => c.references("referring_physicians.id"))
        .addColumn("icd_codes", "text", (c) => c.notNull())
        .addColumn("treating_icd_codes", "text", (c) => c.notNull())
        .addColumn("insurance_cards", "text", (c) => c.notNull())
        .addColumn("number_of_past_visits", "integer", (c) => c.notNull())
        .addColumn("treatment_status", "varchar(20)", (c) => c.notNull())
        .addColumn("treatment_start_date", DATE)
        .addColumn("date_of_injury", DATE)
        .addColumn("date_of_surgery", DATE)
        .addColumn("payment_mode", "varchar(20)")
        .addColumn("frequency_and_duration", "text")
        .addColumn("visit_track_required", "integer", (c) => c.notNull())
        .addColumn("case_visit_limit", "integer", (c) => c.notNull())
        .addColumn("body_pain_notes", "text")
        .addColumn("affected_body_parts", "text", (c) => c.notNull())
        .addColumn("therapist_ids", "text", (c) => c.notNull())
        .addColumn("visit_lock", "integer", (c) => c.notNull().defaultTo(0))
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("cases_org_patient_ix")
        .on("cases")
        .columns(["organisation_id", "patient_id", "id"])
        .execute();
      await db.schema
        .createIndex("appointments_org_case_ix")
        .on("appointments")
        .columns(["organisation_id", "service_case_id", "starts_at"])
        .execute();

      await db.schema
        .createTable("authorizations")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("case_id", "integer", (c) => c.notNull().references("cases.id"))
        .addColumn("patient_id", "integer", (c) => c.notNull().references("patients.id"))
        .addColumn("reference_number", "varchar(100)", (c) => c.notNull())
        .addColumn("payer_name", "varchar(100)", (c) => c.notNull())
        .addColumn("payer_id", "varchar(50)")
        .addColumn("plan_start_date", DATE)
        .addColumn("plan_end_date", DATE)
        .addColumn("effective_start_date", DATE, (c) => c.notNull())
        .addColumn("effective_end_date", DATE, (c) => c.notNull())
        .addColumn("authorized_visits", "integer", (c) => c.notNull())
        .addColumn("previously_consumed_visits", "integer", (c) => c.notNull())
        .addColumn("status", "varchar(10)", (c) => c.notNull())
        .addColumn("icd_codes", "text", (c) => c.notNull())
        .addColumn("cpt_details", "text", (c) => c.notNull())
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .execute();
      await db.schema
        .createIndex("authorizations_org_case_ix")
        .on("authorizations")
        .columns(["organisation_id", "case_id", "effective_start_date"])
        .execute();
    },
    async down(db: Kysely<any>) {
      await dropIndexOf(db, profile, "appointments_org_case_ix", "appointments").execute();
      for (const t of ["authorizations", "cases", "insurance_cards", "referring_physicians"])
        await db.schema.dropTable(t).execute();
      await db.schema.alterTable("clinics").dropColumn("visit_limit_warning_only").execute();
    },
  };
}
