import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/** Organisations, clinics, providers, catalog, patients, outbox and rate-limit counters. */
export function foundationMigration(profile: SqlDialectProfile): Migration {
  const id = (b: Parameters<SqlDialectProfile["autoIncrement"]>[0]) => profile.autoIncrement(b.primaryKey());
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("organisations")
        .addColumn("id", "bigint", (c) => c.primaryKey())
        .addColumn("name", "varchar(200)", (c) => c.notNull())
        .addColumn("plan", "varchar(20)", (c) => c.notNull())
        .addColumn("is_active", "integer", (c) => c.notNull())
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .execute();

      await db.schema
        .createTable("clinics")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("name", "varchar(200)", (c) => c.notNull())
        .addColumn("time_zone", "varchar(64)", (c) => c.notNull())
        .addUniqueConstraint("clinics_org_name_uq", ["organisation_id", "name"])
        .execute();

      await db.schema
        .createTable("providers")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("user_id", "bigint", (c) => c.notNull())
        .addColumn("first_name", "varchar(100)", (c) => c.notNull())
        .addColumn("last_name", "varchar(100)", (c) => c.notNull())
        .addColumn("npi", "varchar(10)")
        .addColumn("supervising_user_id", "bigint")
        .addUniqueConstraint("providers_org_user_uq", ["organisation_id", "user_id"])
        .execute();

      await db.schema
        .createTable("provider_clinics")
        .addColumn("provider_id", "integer", (c) => c.notNull().references("providers.id"))
        .addColumn("clinic_id", "integer", (c) => c.notNull().references("clinics.id"))
        .addPrimaryKeyConstraint("provider_clinics_pk", ["provider_id", "clinic_id"])
        .execute();

      await db.schema
        .createTable("patients")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("clinic_id", "integer", (c) => c.references("clinics.id"))
        .addColumn("first_name", "varchar(100)", (c) => c.notNull())
        .addColumn("middle_name", "varchar(100)")
        .addColumn("last_name", "varchar(100)", (c) => c.notNull())
        .addColumn("date_of_birth", "varchar(10)", (c) => c.notNull())
        .addColumn("sex", "varchar(10)", (c) => c.notNull())
        .addColumn("phone", "varchar(30)")
        .addColumn("email", "varchar(254)")
        .addColumn("address_line1", "varchar(200)")
        .addColumn("address_line2", "varchar(200)")
        .addColumn("address_city", "varchar(100)")
        .addColumn("address_state", "varchar(2)")
        .addColumn("address_postal_code", "varchar(10)")
        .addColumn("address_country", "varchar(2)")
        .addColumn("emergency_name", "varchar(200)")
        .addColumn("emergency_relationship", "varchar(50)")
        .addColumn("emergency_phone", "varchar(30)")
        .addColumn("insurance_provider", "varchar(200)")
        .addColumn("insurance_policy_number", "varchar(50)")
        .addColumn("insurance_group_number", "varchar(50)")
        .addColumn("status", "varchar(10)", (c) => c.notNull())
        .addColumn("identity_key", "varchar(220)", (c) => c.notNull())
        .addColumn("search_text", "varchar(700)", (c) => c.notNull())
        .addColumn("first_name_sort", "varchar(100)", (c) => c.notNull())
        .addColumn("last_name_sort", "varchar(100)", (c) => c.notNull())
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .addUniqueConstraint("patients_org_identity_uq", ["organisation_id", "identity_key"])
        .execute();
      await db.schema
        .createIndex("patients_org_status_created_ix")
        .on("patients")
        .columns(["organisation_id", "status", "created_at", "id"])
        .execute();
      await db.schema
        .createIndex("patients_org_status_updated_ix")
        .on("patients")
        .columns(["organisation_id", "status", "updated_at", "id"])
        .execute();
      await db.schema
        .createIndex("patients_org_status_last_ix")
        .on("patients")
        .columns(["organisation_id", "status", "last_name_sort", "id"])
        .execute();
      await db.schema
        .createIndex("patients_org_status_first_ix")
        .on("patients")
        .columns(["organisation_id", "status", "first_name_sort", "id"])
        .execute();

      await db.schema
        .createTable("outbox")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull())
        .addColumn("event_type", "varchar(64)", (c) => c.notNull())
        .addColumn("data", "text", (c) => c.notNull())
        .addColumn("occurred_at", TIME, (c) => c.notNull())
        .addColumn("dispatched_at", TIME)
        .execute();
      await db.schema.createIndex("outbox_pending_ix").on("outbox").columns(["dispatched_at", "id"]).execute();

      await db.schema
        .createTable("rate_limit_counters")
        .addColumn("counter_key", "varchar(120)", (c) => c.notNull())
        .addColumn("window_start", TIME, (c) => c.notNull())
        .addColumn("hits", "integer", (c) => c.notNull())
        .addPrimaryKeyConstraint("rate_limit_counters_pk", ["counter_key", "window_start"])
        .execute();
      await db.schema
        .createIndex("rate_limit_counters_window_ix")
        .on("rate_limit_counters")
        .column("window_start")
        .execute();

      await db.schema
        .createTable("appointment_categories")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("name", "varchar(100)", (c) => c.notNull())
        .addColumn("category_type", "varchar(30)", (c) => c.notNull())
        .addColumn("duration_minutes", "integer", (c) => c.notNull())
        .addUniqueConstraint("appointment_categories_org_name_uq", ["organisation_id", "name"])
        .execute();

      await db.schema
        .createTable("cancellation_reasons")
        .addColumn("id", profile.autoIncrementColumnType(), id)
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("reason_key", "varchar(64)", (c) => c.notNull())
        .addColumn("reason_label", "varchar(200)", (c) => c.notNull())
        .addColumn("cancellation_fee", "numeric(10, 2)", (c) => c.notNull())
        .addColumn("status", "varchar(10)", (c) => c.notNull())
        .addUniqueConstraint("cancellation_reasons_org_key_uq", ["organisation_id", "reason_key"])
        .execute();

      await db.schema
        .createTable("organisation_specializations")
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("code", "varchar(30)", (c) => c.notNull())
        .addPrimaryKeyConstraint("organisation_specializations_pk", ["organisation_id", "code"])
        .execute();
    },
    async down(db: Kysely<any>) {
      for (const t of [
        "organisation_specializations",
        "cancellation_reasons",
        "appointment_categories",
        "rate_limit_counters",
        "outbox",
        "patients",
        "provider_clinics",
        "providers",
        "clinics",
        "organisations",
      ]) {
        await db.schema.dropTable(t).execute();
      }
    },
  };
}
