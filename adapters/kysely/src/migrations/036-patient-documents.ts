import { createHash } from "node:crypto";
import type { Kysely, Migration } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const TIME = "varchar(30)";

/**
 * Patient documents' records (their bytes are in the document store, sealed, or in soap_documents for visit
 * summaries) and each organisation's document settings. The list reads one patient's documents newest first
 * (organisation, patient, created_at, id); the purge reads deleted rows by purge_after; the orphan sweep looks
 * storage keys up (unique within an organisation). Summaries rendered before this migration are listed here with their hash.
 */
export function patientDocumentsMigration(profile: SqlDialectProfile): Migration {
  return {
    async up(db: Kysely<any>) {
      await db.schema
        .createTable("patient_documents")
        .addColumn("id", profile.autoIncrementColumnType(), (c) => profile.autoIncrement(c.primaryKey()))
        .addColumn("organisation_id", "bigint", (c) => c.notNull().references("organisations.id"))
        .addColumn("patient_id", "bigint", (c) => c.notNull())
        .addColumn("category", "varchar(40)", (c) => c.notNull())
        .addColumn("title", "varchar(200)", (c) => c.notNull())
        .addColumn("description", "varchar(2000)")
        .addColumn("document_date", "varchar(10)")
        .addColumn("listed_on", "varchar(10)", (c) => c.notNull())
        .addColumn("case_id", "bigint")
        .addColumn("appointment_id", "bigint")
        .addColumn("clinic_id", "bigint")
        .addColumn("source", "varchar(20)", (c) => c.notNull())
        .addColumn("soap_context_id", "varchar(64)")
        .addColumn("file_name", "varchar(255)", (c) => c.notNull())
        .addColumn("media_type", "varchar(100)", (c) => c.notNull())
        .addColumn("size_bytes", "bigint", (c) => c.notNull())
        .addColumn("sha256", "varchar(64)", (c) => c.notNull())
        .addColumn("storage_key", "varchar(64)")
        .addColumn("wrapped_key", "varchar(400)")
        .addColumn("status", "varchar(20)", (c) => c.notNull())
        .addColumn("scan_result", "varchar(20)", (c) => c.notNull())
        .addColumn("scan_signature", "varchar(200)")
        .addColumn("scanned_at", TIME)
        .addColumn("uploaded_by_user_id", "bigint")
        .addColumn("uploaded_by_client_id", "varchar(100)")
        .addColumn("created_at", TIME, (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .addColumn("deleted_at", TIME)
        .addColumn("purge_after", TIME)
        // Keys are 128 random bits; unique within the organisation (a distributed PostgreSQL enforces no wider
        // uniqueness, docs/scale-out.md), looked up alone by the orphan sweep through the index below.
        .addUniqueConstraint("patient_documents_key_uq", ["organisation_id", "storage_key"])
        .addUniqueConstraint("patient_documents_summary_uq", ["organisation_id", "soap_context_id"])
        .execute();
      await db.schema
        .createIndex("patient_documents_patient_ix")
        .on("patient_documents")
        .columns(["organisation_id", "patient_id", "created_at", "id"])
        .execute();
      await db.schema.createIndex("patient_documents_key_ix").on("patient_documents").column("storage_key").execute();
      await db.schema
        .createIndex("patient_documents_purge_ix")
        .on("patient_documents")
        .columns(["status", "purge_after"])
        .execute();
      await db.schema
        .createTable("patient_document_settings")
        .addColumn("organisation_id", "bigint", (c) => c.primaryKey().references("organisations.id"))
        .addColumn("retention_days", "integer", (c) => c.notNull())
        .addColumn("custom_categories", "text", (c) => c.notNull())
        .addColumn("updated_at", TIME, (c) => c.notNull())
        .execute();
      await listRenderedSummaries(db);
    },
    async down(db: Kysely<any>) {
      await db.schema.dropTable("patient_document_settings").execute();
      await db.schema.dropTable("patient_documents").execute();
    },
  };
}

/** Lists the full summaries rendered before patient documents existed, 100 at a time (the hash is computed here). */
async function listRenderedSummaries(db: Kysely<any>): Promise<void> {
  let after = { organisation_id: 0, context_id: "" };
  for (;;) {
    const rows = await db
      .selectFrom("soap_documents as d")
      .innerJoin("soap_notes as n", (j) =>
        j.onRef("n.organisation_id", "=", "d.organisation_id").onRef("n.context_id", "=", "d.context_id"),
      )
      .select([
        "d.organisation_id",
        "d.context_id",
        "d.content_type",
        "d.content",
        "d.created_at",
        "n.patient_id",
        "n.clinic_id",
        "n.appointment_id",
        "n.service_case_id",
        "n.service_date_time",
      ])
      .where("d.variant", "=", "full")
      .where((eb) =>
        eb.or([
          eb("d.organisation_id", ">", after.organisation_id),
          eb.and([eb("d.organisation_id", "=", after.organisation_id), eb("d.context_id", ">", after.context_id)]),
        ]),
      )
      .orderBy("d.organisation_id")
      .orderBy("d.context_id")
      .limit(100)
      .execute();
    if (rows.length === 0) return;
    await db
      .insertInto("patient_documents")
      .values(
        rows.map((r) => {
          const day = String(r.service_date_time).slice(0, 10);
          const content = r.content as Uint8Array;
          return {
            organisation_id: r.organisation_id,
            patient_id: r.patient_id,
            category: "visit_summary",
            title: `Visit summary ${day}`,
            description: null,
            document_date: day,
            listed_on: day,
            case_id: r.service_case_id,
            appointment_id: r.appointment_id,
            clinic_id: r.clinic_id,
            source: "soap_summary",
            soap_context_id: r.context_id,
            file_name: `soap-summary-${r.context_id}.pdf`,
            media_type: r.content_type,
            size_bytes: content.byteLength,
            sha256: createHash("sha256").update(content).digest("hex"),
            storage_key: null,
            wrapped_key: null,
            status: "available",
            scan_result: "not_applicable",
            created_at: r.created_at,
            updated_at: r.created_at,
          };
        }),
      )
      .execute();
    const last = rows[rows.length - 1] as { organisation_id: unknown; context_id: unknown };
    after = { organisation_id: Number(last.organisation_id), context_id: String(last.context_id) };
  }
}
