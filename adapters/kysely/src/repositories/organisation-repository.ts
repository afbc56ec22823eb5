import type {
  BillingUnitRule,
  ClinicSettings,
  DocumentationSettings,
  Organisation,
  OrganisationRepository,
  Plan,
  Provider,
  Clinic,
} from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { readLatest } from "../contention.js";
import { insertIgnoringDuplicate } from "../insert-ignoring-duplicate.js";
import {
  fromDbTime,
  toDbTime,
  type ClinicsTable,
  type Database,
  type OrganisationsTable,
  type ProvidersTable,
} from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const toOrganisation = (r: Selectable<OrganisationsTable>): Organisation => ({
  id: Number(r.id),
  name: r.name,
  plan: r.plan as Plan,
  isActive: Boolean(Number(r.is_active)),
  documentation: {
    billingUnitRule: r.billing_unit_rule as BillingUnitRule,
    requireCosign: Boolean(Number(r.require_cosign)),
    autoSubmitBilling: Boolean(Number(r.auto_submit_billing)),
    requirePlanSection: Boolean(Number(r.require_plan_section)),
  },
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

const toClinic = (r: Selectable<ClinicsTable>): Clinic => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  name: r.name,
  timeZone: r.time_zone,
  allowDoubleBooking: Boolean(Number(r.allow_double_booking)),
  visitLimitWarningOnly: Boolean(Number(r.visit_limit_warning_only)),
});

const toProvider = (r: Selectable<ProvidersTable>, clinicIds: number[]): Provider => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  userId: Number(r.user_id),
  firstName: r.first_name,
  lastName: r.last_name,
  npi: r.npi,
  supervisingUserId: r.supervising_user_id === null ? null : Number(r.supervising_user_id),
  clinicIds,
});

export class KyselyOrganisationRepository implements OrganisationRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async findById(id: number) {
    const row = await this.db.selectFrom("organisations").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? toOrganisation(row) : undefined;
  }

  async ensure(org: { id: number; name: string; plan: Plan; now: Date }) {
    const at = toDbTime(org.now);
    await insertIgnoringDuplicate(
      this.db,
      this.profile,
      "organisations",
      { id: org.id, name: org.name, plan: org.plan, is_active: 1, created_at: at, updated_at: at },
      ["id"],
    );
  }

  async updateProfile(id: number, changes: { name?: string; isActive?: boolean }, now: Date) {
    const set: { name?: string; is_active?: number; updated_at: string } = { updated_at: toDbTime(now) };
    if (changes.name !== undefined) set.name = changes.name;
    if (changes.isActive !== undefined) set.is_active = changes.isActive ? 1 : 0;
    await this.db.updateTable("organisations").set(set).where("id", "=", id).execute();
  }

  async updateDocumentationSettings(id: number, settings: Partial<DocumentationSettings>, now: Date) {
    const set: {
      billing_unit_rule?: string;
      require_cosign?: number;
      auto_submit_billing?: number;
      require_plan_section?: number;
      updated_at: string;
    } = { updated_at: toDbTime(now) };
    if (settings.billingUnitRule !== undefined) set.billing_unit_rule = settings.billingUnitRule;
    if (settings.requireCosign !== undefined) set.require_cosign = settings.requireCosign ? 1 : 0;
    if (settings.autoSubmitBilling !== undefined) set.auto_submit_billing = settings.autoSubmitBilling ? 1 : 0;
    if (settings.requirePlanSection !== undefined) set.require_plan_section = settings.requirePlanSection ? 1 : 0;
    await this.db.updateTable("organisations").set(set).where("id", "=", id).execute();
  }

  async setPlan(id: number, plan: Plan, now: Date) {
    await this.db
      .updateTable("organisations")
      .set({ plan, updated_at: toDbTime(now) })
      .where("id", "=", id)
      .execute();
  }

  async ensureClinic(clinic: Parameters<OrganisationRepository["ensureClinic"]>[0]) {
    const values = {
      organisation_id: clinic.organisationId,
      name: clinic.name,
      time_zone: clinic.timeZone,
      allow_double_booking: clinic.allowDoubleBooking ? 1 : 0,
      visit_limit_warning_only: clinic.visitLimitWarningOnly ? 1 : 0,
    };
    await insertIgnoringDuplicate(this.db, this.profile, "clinics", values, ["organisation_id", "name"]);
    const row = await readLatest(
      this.profile,
      this.db
        .selectFrom("clinics")
        .selectAll()
        .where("organisation_id", "=", clinic.organisationId)
        .where("name", "=", clinic.name),
    ).executeTakeFirstOrThrow();
    return toClinic(row);
  }

  async updateClinicSettings(organisationId: number, clinicId: number, settings: ClinicSettings) {
    const changes: { allow_double_booking?: number; visit_limit_warning_only?: number } = {};
    if (settings.allowDoubleBooking !== undefined) changes.allow_double_booking = settings.allowDoubleBooking ? 1 : 0;
    if (settings.visitLimitWarningOnly !== undefined)
      changes.visit_limit_warning_only = settings.visitLimitWarningOnly ? 1 : 0;
    if (Object.keys(changes).length > 0)
      await this.db
        .updateTable("clinics")
        .set(changes)
        .where("organisation_id", "=", organisationId)
        .where("id", "=", clinicId)
        .execute();
    return this.findClinic(organisationId, clinicId);
  }

  async findClinic(organisationId: number, clinicId: number) {
    const row = await this.db
      .selectFrom("clinics")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", clinicId)
      .executeTakeFirst();
    return row ? toClinic(row) : undefined;
  }

  async listClinics(organisationId: number) {
    const rows = await this.db
      .selectFrom("clinics")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .orderBy("id")
      .execute();
    return rows.map(toClinic);
  }

  async upsertProvider(p: Omit<Provider, "id">) {
    const values = {
      first_name: p.firstName,
      last_name: p.lastName,
      npi: p.npi,
      supervising_user_id: p.supervisingUserId,
    };
    const inserted = await insertIgnoringDuplicate(
      this.db,
      this.profile,
      "providers",
      { organisation_id: p.organisationId, user_id: p.userId, ...values },
      ["organisation_id", "user_id"],
    );
    if (!inserted)
      await this.db
        .updateTable("providers")
        .set(values)
        .where("organisation_id", "=", p.organisationId)
        .where("user_id", "=", p.userId)
        .execute();
    const row = await readLatest(
      this.profile,
      this.db
        .selectFrom("providers")
        .select("id")
        .where("organisation_id", "=", p.organisationId)
        .where("user_id", "=", p.userId),
    ).executeTakeFirstOrThrow();
    const providerId = Number(row.id);
    await this.db.deleteFrom("provider_clinics").where("provider_id", "=", providerId).execute();
    if (p.clinicIds.length > 0) {
      await this.db
        .insertInto("provider_clinics")
        .values(p.clinicIds.map((clinic_id) => ({ provider_id: providerId, clinic_id })))
        .execute();
    }
    return { ...p, id: providerId, clinicIds: [...p.clinicIds] };
  }

  async listProviders(organisationId: number) {
    const rows = await this.db
      .selectFrom("providers")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .orderBy("id")
      .execute();
    const links = await this.db
      .selectFrom("provider_clinics")
      .innerJoin("providers", "providers.id", "provider_clinics.provider_id")
      .select(["provider_clinics.provider_id", "provider_clinics.clinic_id"])
      .where("providers.organisation_id", "=", organisationId)
      .execute();
    return rows.map((r) =>
      toProvider(
        r,
        links.filter((l) => Number(l.provider_id) === Number(r.id)).map((l) => Number(l.clinic_id)),
      ),
    );
  }

  async findProvider(organisationId: number, userId: number) {
    const row = await this.db
      .selectFrom("providers")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("user_id", "=", userId)
      .executeTakeFirst();
    if (!row) return undefined;
    const links = await this.db
      .selectFrom("provider_clinics")
      .select("clinic_id")
      .where("provider_id", "=", row.id)
      .orderBy("clinic_id")
      .execute();
    return toProvider(
      row,
      links.map((l) => Number(l.clinic_id)),
    );
  }
}
