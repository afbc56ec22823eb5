import type { AppointmentCategory, CancellationReason, CatalogRepository } from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { readLatest } from "../contention.js";
import { insertIgnoringDuplicate } from "../insert-ignoring-duplicate.js";
import type { AppointmentCategoriesTable, CancellationReasonsTable, Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const toCategory = (r: Selectable<AppointmentCategoriesTable>): AppointmentCategory => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  name: r.name,
  type: r.category_type,
  durationMinutes: Number(r.duration_minutes),
});

const toReason = (r: Selectable<CancellationReasonsTable>): CancellationReason => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  reasonKey: r.reason_key,
  reasonLabel: r.reason_label,
  cancellationFee: Number(r.cancellation_fee),
  status: r.status as CancellationReason["status"],
});

export class KyselyCatalogRepository implements CatalogRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async ensureAppointmentCategory(c: Omit<AppointmentCategory, "id">) {
    await insertIgnoringDuplicate(
      this.db,
      this.profile,
      "appointment_categories",
      { organisation_id: c.organisationId, name: c.name, category_type: c.type, duration_minutes: c.durationMinutes },
      ["organisation_id", "name"],
    );
    const row = await readLatest(
      this.profile,
      this.db
        .selectFrom("appointment_categories")
        .selectAll()
        .where("organisation_id", "=", c.organisationId)
        .where("name", "=", c.name),
    ).executeTakeFirstOrThrow();
    return toCategory(row);
  }

  async listAppointmentCategories(organisationId: number) {
    const rows = await this.db
      .selectFrom("appointment_categories")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .orderBy("id")
      .execute();
    return rows.map(toCategory);
  }

  async ensureCancellationReason(r: Omit<CancellationReason, "id">) {
    await insertIgnoringDuplicate(
      this.db,
      this.profile,
      "cancellation_reasons",
      {
        organisation_id: r.organisationId,
        reason_key: r.reasonKey,
        reason_label: r.reasonLabel,
        cancellation_fee: r.cancellationFee,
        status: r.status,
      },
      ["organisation_id", "reason_key"],
    );
    const row = await readLatest(
      this.profile,
      this.db
        .selectFrom("cancellation_reasons")
        .selectAll()
        .where("organisation_id", "=", r.organisationId)
        .where("reason_key", "=", r.reasonKey),
    ).executeTakeFirstOrThrow();
    return toReason(row);
  }

  async listCancellationReasons(organisationId: number) {
    const rows = await this.db
      .selectFrom("cancellation_reasons")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .orderBy("id")
      .execute();
    return rows.map(toReason);
  }

  async enableSpecialization(organisationId: number, code: string) {
    await insertIgnoringDuplicate(
      this.db,
      this.profile,
      "organisation_specializations",
      { organisation_id: organisationId, code },
      ["organisation_id", "code"],
    );
  }

  async listSpecializations(organisationId: number) {
    const rows = await this.db
      .selectFrom("organisation_specializations")
      .select("code")
      .where("organisation_id", "=", organisationId)
      .orderBy("code")
      .execute();
    return rows.map((r) => r.code);
  }
}
