import type { AppointmentCategory, CancellationReason, CatalogRepository } from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { readLatest, refusableStatement } from "../contention.js";
import { insertIgnoringDuplicate, insertIgnoringDuplicateReturningId } from "../insert-ignoring-duplicate.js";
import type { Database } from "../schema.js";
import type { AppointmentCategoriesTable, CancellationReasonsTable } from "../tables/foundation.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const toCategory = (r: Selectable<AppointmentCategoriesTable>): AppointmentCategory => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  name: r.name,
  type: r.category_type,
  durationMinutes: Number(r.duration_minutes),
  colour: r.colour,
  active: Boolean(Number(r.active)),
});

const categoryColumns = (c: Omit<AppointmentCategory, "id">) => ({
  name: c.name,
  category_type: c.type,
  duration_minutes: c.durationMinutes,
  colour: c.colour,
  active: c.active ? 1 : 0,
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

  async ensureAppointmentCategory(c: Parameters<CatalogRepository["ensureAppointmentCategory"]>[0]) {
    await insertIgnoringDuplicate(
      this.db,
      this.profile,
      "appointment_categories",
      {
        organisation_id: c.organisationId,
        ...categoryColumns({ ...c, colour: c.colour ?? null, active: c.active ?? true }),
      },
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

  /** The category holding this name, as last committed. */
  private async categoryNamed(organisationId: number, name: string, exceptId?: number) {
    let q = this.db
      .selectFrom("appointment_categories")
      .select("id")
      .where("organisation_id", "=", organisationId)
      .where("name", "=", name);
    if (exceptId !== undefined) q = q.where("id", "<>", exceptId);
    const row = await readLatest(this.profile, q).executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  async insertAppointmentCategory(c: Omit<AppointmentCategory, "id">) {
    const id = await insertIgnoringDuplicateReturningId(
      this.db,
      this.profile,
      "appointment_categories",
      { organisation_id: c.organisationId, ...categoryColumns(c) },
      ["organisation_id", "name"],
    );
    if (id !== undefined) return { created: true as const, category: { ...c, id } };
    const holder = await this.categoryNamed(c.organisationId, c.name);
    if (holder === undefined)
      throw new Error("appointment_categories: name holder missing right after a refused insert");
    return { created: false as const, existingId: holder };
  }

  async updateAppointmentCategory(c: AppointmentCategory) {
    const holder = await this.categoryNamed(c.organisationId, c.name, c.id);
    if (holder !== undefined) return { updated: false as const, existingId: holder };
    try {
      await refusableStatement(this.db, this.profile, () =>
        this.db
          .updateTable("appointment_categories")
          .set(categoryColumns(c))
          .where("organisation_id", "=", c.organisationId)
          .where("id", "=", c.id)
          .execute(),
      );
      return { updated: true as const };
    } catch (error) {
      if (!this.profile.isUniqueViolation(error)) throw error;
      return { updated: false as const, existingId: (await this.categoryNamed(c.organisationId, c.name, c.id)) ?? 0 };
    }
  }

  async findAppointmentCategory(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("appointment_categories")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toCategory(row) : undefined;
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

  async insertCancellationReason(r: Omit<CancellationReason, "id">) {
    const id = await insertIgnoringDuplicateReturningId(
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
    if (id !== undefined) return { created: true as const, reason: { ...r, id } };
    const row = await readLatest(
      this.profile,
      this.db
        .selectFrom("cancellation_reasons")
        .select("id")
        .where("organisation_id", "=", r.organisationId)
        .where("reason_key", "=", r.reasonKey),
    ).executeTakeFirst();
    if (!row) throw new Error("cancellation_reasons: key holder missing right after a refused insert");
    return { created: false as const, existingId: Number(row.id) };
  }

  async updateCancellationReason(r: CancellationReason) {
    await this.db
      .updateTable("cancellation_reasons")
      .set({ reason_label: r.reasonLabel, cancellation_fee: r.cancellationFee, status: r.status })
      .where("organisation_id", "=", r.organisationId)
      .where("id", "=", r.id)
      .execute();
  }

  async findCancellationReason(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("cancellation_reasons")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toReason(row) : undefined;
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
