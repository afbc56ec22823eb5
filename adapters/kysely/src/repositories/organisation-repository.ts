import {
  clinicWithDefaults,
  providerWithDefaults,
  type BillingUnitRule,
  type DocumentationSettings,
  type Organisation,
  type OrganisationRepository,
  type Plan,
  type Provider,
  type Clinic,
} from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { readLatest, refusableStatement } from "../contention.js";
import { insertIgnoringDuplicate, insertIgnoringDuplicateReturningId } from "../insert-ignoring-duplicate.js";
import { insertReturningId } from "./insert-returning-id.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { ClinicsTable, OrganisationsTable, ProvidersTable } from "../tables/foundation.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const toOrganisation = (r: Selectable<OrganisationsTable>): Organisation => ({
  id: Number(r.id),
  name: r.name,
  plan: r.plan as Plan,
  isActive: Boolean(Number(r.is_active)),
  timeZone: r.time_zone,
  deactivatedAt: r.deactivated_at === null ? null : fromDbTime(r.deactivated_at),
  auditReads: Boolean(Number(r.audit_reads)),
  documentation: {
    billingUnitRule: r.billing_unit_rule as BillingUnitRule,
    requireCosign: Boolean(Number(r.require_cosign)),
    autoSubmitBilling: Boolean(Number(r.auto_submit_billing)),
    requirePlanSection: Boolean(Number(r.require_plan_section)),
  },
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

const EPOCH = "1970-01-01T00:00:00.000Z";

const toClinic = (r: Selectable<ClinicsTable>): Clinic => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  name: r.name,
  timeZone: r.time_zone,
  allowDoubleBooking: Boolean(Number(r.allow_double_booking)),
  visitLimitWarningOnly: Boolean(Number(r.visit_limit_warning_only)),
  address: {
    line1: r.address_line1,
    line2: r.address_line2,
    city: r.city,
    state: r.state,
    postalCode: r.postal_code,
    country: r.country,
  },
  phone: r.phone,
  placeOfService: r.place_of_service,
  npi: r.npi,
  taxId: r.tax_id,
  active: Boolean(Number(r.active)),
  createdAt: fromDbTime(r.created_at ?? EPOCH),
  updatedAt: fromDbTime(r.updated_at ?? EPOCH),
});

/** Every column of a clinic but its id and organisation. */
const clinicColumns = (c: Omit<Clinic, "id">) => ({
  name: c.name,
  time_zone: c.timeZone,
  allow_double_booking: c.allowDoubleBooking ? 1 : 0,
  visit_limit_warning_only: c.visitLimitWarningOnly ? 1 : 0,
  address_line1: c.address.line1,
  address_line2: c.address.line2,
  city: c.address.city,
  state: c.address.state,
  postal_code: c.address.postalCode,
  country: c.address.country,
  phone: c.phone,
  place_of_service: c.placeOfService,
  npi: c.npi,
  tax_id: c.taxId,
  active: c.active ? 1 : 0,
  updated_at: toDbTime(c.updatedAt),
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
  credentials: JSON.parse(r.credentials) as string[],
  licenceNumber: r.licence_number,
  licenceState: r.licence_state,
  specialities: JSON.parse(r.specialities) as string[],
  requiresCosign: Boolean(Number(r.requires_cosign)),
  active: Boolean(Number(r.active)),
  createdAt: fromDbTime(r.created_at ?? EPOCH),
  updatedAt: fromDbTime(r.updated_at ?? EPOCH),
});

/** Every column of a provider but its id, organisation and user id. */
const providerColumns = (p: Omit<Provider, "id">) => ({
  first_name: p.firstName,
  last_name: p.lastName,
  npi: p.npi,
  supervising_user_id: p.supervisingUserId,
  credentials: JSON.stringify(p.credentials),
  licence_number: p.licenceNumber,
  licence_state: p.licenceState,
  specialities: JSON.stringify(p.specialities),
  requires_cosign: p.requiresCosign ? 1 : 0,
  active: p.active ? 1 : 0,
  updated_at: toDbTime(p.updatedAt),
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

  async insertOrganisation(org: Omit<Organisation, "id">) {
    const values = {
      name: org.name,
      plan: org.plan,
      is_active: org.isActive ? 1 : 0,
      time_zone: org.timeZone,
      deactivated_at: org.deactivatedAt ? toDbTime(org.deactivatedAt) : null,
      audit_reads: org.auditReads ? 1 : 0,
      billing_unit_rule: org.documentation.billingUnitRule,
      require_cosign: org.documentation.requireCosign ? 1 : 0,
      auto_submit_billing: org.documentation.autoSubmitBilling ? 1 : 0,
      require_plan_section: org.documentation.requirePlanSection ? 1 : 0,
      created_at: toDbTime(org.createdAt),
      updated_at: toDbTime(org.updatedAt),
    };
    // Ids are external (a token's organisation_id), so there is no sequence: the next one above the highest, and
    // the primary key decides between concurrent creators (the loser takes the next).
    for (let attempt = 0; attempt < 50; attempt++) {
      const top = await readLatest(
        this.profile,
        this.db.selectFrom("organisations").select((eb) => eb.fn.max("id").as("top")),
      ).executeTakeFirst();
      const id = Number(top?.top ?? 0) + 1 + attempt;
      if (await insertIgnoringDuplicate(this.db, this.profile, "organisations", { id, ...values }, ["id"]))
        return { ...org, id };
    }
    throw new Error("organisations: no free id after 50 attempts");
  }

  async listOrganisations(f: { deactivated?: boolean | undefined; limit: number; offset: number }) {
    let q = this.db.selectFrom("organisations");
    if (f.deactivated !== undefined)
      q = f.deactivated ? q.where("deactivated_at", "is not", null) : q.where("deactivated_at", "is", null);
    const [rows, counted] = await Promise.all([
      q.selectAll().orderBy("id").limit(f.limit).offset(f.offset).execute(),
      q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { organisations: rows.map(toOrganisation), total: Number(counted.n) };
  }

  async updateOrganisation(org: Organisation) {
    await this.db
      .updateTable("organisations")
      .set({
        name: org.name,
        plan: org.plan,
        time_zone: org.timeZone,
        deactivated_at: org.deactivatedAt ? toDbTime(org.deactivatedAt) : null,
        audit_reads: org.auditReads ? 1 : 0,
        updated_at: toDbTime(org.updatedAt),
      })
      .where("id", "=", org.id)
      .execute();
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

  /** The clinic holding this name, as last committed. */
  private async clinicNamed(organisationId: number, name: string, exceptId?: number) {
    let q = this.db
      .selectFrom("clinics")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("name", "=", name);
    if (exceptId !== undefined) q = q.where("id", "<>", exceptId);
    return readLatest(this.profile, q).executeTakeFirst();
  }

  async ensureClinic(clinic: Parameters<OrganisationRepository["ensureClinic"]>[0]) {
    const full = clinicWithDefaults(clinic);
    const values = {
      organisation_id: full.organisationId,
      created_at: toDbTime(full.createdAt),
      ...clinicColumns(full),
    };
    await insertIgnoringDuplicate(this.db, this.profile, "clinics", values, ["organisation_id", "name"]);
    const row = await this.clinicNamed(clinic.organisationId, clinic.name);
    if (!row) throw new Error("clinics: the clinic is missing right after its insert");
    return toClinic(row);
  }

  async insertClinic(clinic: Omit<Clinic, "id">) {
    const values = {
      organisation_id: clinic.organisationId,
      created_at: toDbTime(clinic.createdAt),
      ...clinicColumns(clinic),
    };
    // The unique key on (organisation, name) decides between concurrent inserts without raising.
    const id = await insertIgnoringDuplicateReturningId(this.db, this.profile, "clinics", values, [
      "organisation_id",
      "name",
    ]);
    if (id !== undefined) return { created: true as const, clinic: { ...clinic, id } };
    const holder = await this.clinicNamed(clinic.organisationId, clinic.name);
    if (!holder) throw new Error("clinics: name holder missing right after a refused insert");
    return { created: false as const, existingId: Number(holder.id) };
  }

  async updateClinic(clinic: Clinic) {
    const holder = await this.clinicNamed(clinic.organisationId, clinic.name, clinic.id);
    if (holder) return { updated: false as const, existingId: Number(holder.id) };
    try {
      await refusableStatement(this.db, this.profile, () =>
        this.db
          .updateTable("clinics")
          .set(clinicColumns(clinic))
          .where("organisation_id", "=", clinic.organisationId)
          .where("id", "=", clinic.id)
          .execute(),
      );
      return { updated: true as const };
    } catch (error) {
      if (!this.profile.isUniqueViolation(error)) throw error;
      const after = await this.clinicNamed(clinic.organisationId, clinic.name, clinic.id);
      return { updated: false as const, existingId: after ? Number(after.id) : 0 };
    }
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
    const full = providerWithDefaults(p);
    const inserted = await insertIgnoringDuplicate(
      this.db,
      this.profile,
      "providers",
      {
        organisation_id: p.organisationId,
        user_id: p.userId,
        created_at: toDbTime(full.createdAt),
        ...providerColumns(full),
      },
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
    return (await this.findProviderById(p.organisationId, providerId)) as Provider;
  }

  /** The provider holding this user id or NPI (other than `exceptId`), as last committed, and which. */
  private async providerHolding(
    organisationId: number,
    userId: number | undefined,
    npi: string | null,
    exceptId?: number,
  ) {
    const holder = async (column: "user_id" | "npi", value: number | string) => {
      let q = this.db
        .selectFrom("providers")
        .select("id")
        .where("organisation_id", "=", organisationId)
        .where(column, "=", value);
      if (exceptId !== undefined) q = q.where("id", "<>", exceptId);
      const row = await readLatest(this.profile, q).executeTakeFirst();
      return row ? Number(row.id) : undefined;
    };
    const byUser = userId === undefined ? undefined : await holder("user_id", userId);
    if (byUser !== undefined) return { field: "userId" as const, existingId: byUser };
    const byNpi = npi === null ? undefined : await holder("npi", npi);
    return byNpi === undefined ? undefined : { field: "npi" as const, existingId: byNpi };
  }

  private async setProviderClinics(providerId: number, clinicIds: readonly number[]) {
    await this.db.deleteFrom("provider_clinics").where("provider_id", "=", providerId).execute();
    if (clinicIds.length > 0)
      await this.db
        .insertInto("provider_clinics")
        .values(clinicIds.map((clinic_id) => ({ provider_id: providerId, clinic_id })))
        .execute();
  }

  async insertProvider(p: Omit<Provider, "id">) {
    const before = await this.providerHolding(p.organisationId, p.userId, p.npi);
    if (before) return { created: false as const, ...before };
    const values = {
      organisation_id: p.organisationId,
      user_id: p.userId,
      created_at: toDbTime(p.createdAt),
      ...providerColumns(p),
    };
    try {
      // Two unique keys (user id, NPI): a plain insert whose refusal is read back, so either key's race is named.
      const id = await refusableStatement(this.db, this.profile, () =>
        insertReturningId(this.db, this.profile, "providers", values),
      );
      await this.setProviderClinics(id, p.clinicIds);
      return { created: true as const, provider: { ...p, id } };
    } catch (error) {
      if (!this.profile.isUniqueViolation(error)) throw error;
      const holder = await this.providerHolding(p.organisationId, p.userId, p.npi);
      if (!holder) throw error;
      return { created: false as const, ...holder };
    }
  }

  async updateProvider(p: Provider) {
    const before = await this.providerHolding(p.organisationId, undefined, p.npi, p.id);
    if (before) return { updated: false as const, field: "npi" as const, existingId: before.existingId };
    try {
      await refusableStatement(this.db, this.profile, () =>
        this.db
          .updateTable("providers")
          .set(providerColumns(p))
          .where("organisation_id", "=", p.organisationId)
          .where("id", "=", p.id)
          .execute(),
      );
    } catch (error) {
      if (!this.profile.isUniqueViolation(error)) throw error;
      const holder = await this.providerHolding(p.organisationId, undefined, p.npi, p.id);
      if (!holder) throw error;
      return { updated: false as const, field: "npi" as const, existingId: holder.existingId };
    }
    await this.setProviderClinics(p.id, p.clinicIds);
    return { updated: true as const };
  }

  async findProviderById(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("providers")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    if (!row) return undefined;
    const links = await this.db
      .selectFrom("provider_clinics")
      .select("clinic_id")
      .where("provider_id", "=", id)
      .orderBy("clinic_id")
      .execute();
    return toProvider(
      row,
      links.map((l) => Number(l.clinic_id)),
    );
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
