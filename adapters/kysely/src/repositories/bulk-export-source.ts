import type { AppointmentStatus, BulkExportSource, ExportPage } from "@openpractice/core";
import { type Kysely, sql } from "kysely";
import { toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import { rowToAppointment } from "./appointment-rows.js";
import { toCard } from "./insurance-card-repository.js";
import { rowToPatient } from "./patient-rows.js";
import { toDocument } from "./patient-document-repository.js";
import { toNote } from "./soap-note-repository.js";

/**
 * The bulk export's keyset reads: each page one statement over the (organisation_id, id) order the primary keys
 * and tenant indexes give, so page 100 costs what page 1 does.
 */
export class KyselyBulkExportSource implements BulkExportSource {
  constructor(private readonly db: Kysely<Database>) {}

  async patients(p: ExportPage) {
    let q = this.db
      .selectFrom("patients")
      .selectAll()
      .where("organisation_id", "=", p.organisationId)
      .where("id", ">", p.afterId);
    if (p.since) q = q.where("updated_at", ">", toDbTime(p.since));
    return (await q.orderBy("id").limit(p.limit).execute()).map(rowToPatient);
  }

  async insuranceCards(p: ExportPage) {
    let q = this.db
      .selectFrom("insurance_cards")
      .selectAll()
      .where("organisation_id", "=", p.organisationId)
      .where("id", ">", p.afterId)
      .where("deleted_at", "is", null);
    const since = p.since;
    if (since) q = q.where(sql<string>`coalesce(updated_at, created_at)`, ">", toDbTime(since));
    return (await q.orderBy("id").limit(p.limit).execute()).map(toCard);
  }

  async appointments(
    p: ExportPage & { inClinics: readonly number[] | null; statuses: readonly AppointmentStatus[] | null },
  ) {
    let q = this.db
      .selectFrom("appointments")
      .selectAll()
      .where("organisation_id", "=", p.organisationId)
      .where("id", ">", p.afterId);
    if (p.since) q = q.where("updated_at", ">", toDbTime(p.since));
    if (p.inClinics) q = q.where("clinic_id", "in", [...p.inClinics]);
    if (p.statuses) q = q.where("status", "in", [...p.statuses]);
    const rows = await q.orderBy("id").limit(p.limit).execute();
    if (rows.length === 0) return [];
    // The page's category links in one statement.
    const links = await this.db
      .selectFrom("appointment_category_links")
      .select(["appointment_id", "category_id"])
      .where(
        "appointment_id",
        "in",
        rows.map((r) => Number(r.id)),
      )
      .orderBy("category_id")
      .execute();
    const byAppointment = new Map<number, number[]>();
    for (const l of links) {
      const id = Number(l.appointment_id);
      byAppointment.set(id, [...(byAppointment.get(id) ?? []), Number(l.category_id)]);
    }
    return rows.map((r) => rowToAppointment(r, byAppointment.get(Number(r.id)) ?? []));
  }

  async completedNotes(p: ExportPage & { inClinics: readonly number[] | null }) {
    let q = this.db
      .selectFrom("soap_notes")
      .selectAll()
      .where("organisation_id", "=", p.organisationId)
      .where("id", ">", p.afterId)
      .where("completed", "=", 1)
      .where("note_type", "<>", "ADDENDUM");
    if (p.since) q = q.where("completed_at", ">", toDbTime(p.since));
    if (p.inClinics) q = q.where("clinic_id", "in", [...p.inClinics]);
    return (await q.orderBy("id").limit(p.limit).execute()).map(toNote);
  }

  async patientDocuments(p: ExportPage & { inClinics: readonly number[] | null }) {
    let q = this.db
      .selectFrom("patient_documents")
      .selectAll()
      .where("organisation_id", "=", p.organisationId)
      .where("id", ">", p.afterId)
      .where("status", "<>", "deleted");
    if (p.since) q = q.where("updated_at", ">", toDbTime(p.since));
    const clinics = p.inClinics;
    if (clinics) q = q.where((eb) => eb.or([eb("clinic_id", "is", null), eb("clinic_id", "in", [...clinics])]));
    return (await q.orderBy("id").limit(p.limit).execute()).map(toDocument);
  }
}
