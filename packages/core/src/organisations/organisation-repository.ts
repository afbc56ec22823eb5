import type { Clinic, DocumentationSettings, Organisation, Plan, Provider } from "./organisation.js";
import type { Patch } from "../kernel/patch.js";

/** The settings a clinic's administrator may change; omitted ones keep their values. */
export type ClinicSettings = Patch<Pick<Clinic, "allowDoubleBooking" | "visitLimitWarningOnly">>;

export interface OrganisationRepository {
  /** The organisation, or undefined. */
  findById(id: number): Promise<Organisation | undefined>;

  /**
   * Creates the organisation with this id unless it exists (insert-if-absent,
   * race-safe on the primary key); an existing row is left unchanged.
   */
  ensure(org: { id: number; name: string; plan: Plan; now: Date }): Promise<void>;

  /**
   * Stores a new organisation under the next free id (one above the highest; ids of organisations created by a
   * token's first write are taken as they come) and returns it. Concurrent inserts each get their own id.
   */
  insertOrganisation(org: Omit<Organisation, "id">): Promise<Organisation>;

  /** Organisations by id, `deactivated` true: only deactivated ones, false: only the others. */
  listOrganisations(filter: {
    deactivated?: boolean | undefined;
    limit: number;
    offset: number;
  }): Promise<{ organisations: Organisation[]; total: number }>;

  /** Replaces name, plan, time zone, deactivation and read auditing of an existing organisation. */
  updateOrganisation(org: Organisation): Promise<void>;

  /** Changes the profile of an existing organisation; omitted fields keep their values. */
  updateProfile(
    id: number,
    changes: { name?: string | undefined; isActive?: boolean | undefined },
    now: Date,
  ): Promise<void>;

  /** Changes the documentation settings of an existing organisation; omitted ones keep their values. */
  updateDocumentationSettings(id: number, settings: Partial<DocumentationSettings>, now: Date): Promise<void>;

  /** Sets the plan of an existing organisation (operator action). */
  setPlan(id: number, plan: Plan, now: Date): Promise<void>;

  /**
   * Creates the clinic unless one with the same name exists in the
   * organisation; returns the stored clinic (a concurrent caller's, as last
   * committed, when it won the unique key).
   */
  ensureClinic(
    clinic: Pick<Clinic, "organisationId" | "name" | "timeZone"> &
      Partial<Omit<Clinic, "id" | "organisationId" | "name" | "timeZone">>,
  ): Promise<Clinic>;
  /**
   * Inserts a clinic; `created: false` with the existing clinic's id when the organisation already has one with
   * this name (unique key; nothing written, an enclosing transaction stays usable). Of concurrent inserts of one
   * name exactly one is created.
   */
  insertClinic(
    clinic: Omit<Clinic, "id">,
  ): Promise<{ created: true; clinic: Clinic } | { created: false; existingId: number }>;
  /** Replaces the stored fields; `updated: false` with the holder's id when the new name belongs to another clinic. */
  updateClinic(clinic: Clinic): Promise<{ updated: true } | { updated: false; existingId: number }>;
  /** The clinic in this organisation, or undefined (another organisation's clinic is undefined). */
  findClinic(organisationId: number, clinicId: number): Promise<Clinic | undefined>;

  listClinics(organisationId: number): Promise<Clinic[]>;

  /**
   * Creates or updates the provider identified by (organisation, userId) and
   * sets its clinic memberships to exactly `clinicIds`.
   */
  upsertProvider(
    provider: Pick<
      Provider,
      "organisationId" | "userId" | "firstName" | "lastName" | "npi" | "supervisingUserId" | "clinicIds"
    > &
      Partial<Omit<Provider, "id">>,
  ): Promise<Provider>;
  /**
   * Inserts a provider with its clinic memberships; `created: false` names the provider already holding the
   * user id or the NPI in the organisation (unique keys; nothing written, an enclosing transaction stays usable).
   * Of concurrent inserts of one NPI exactly one is created.
   */
  insertProvider(
    provider: Omit<Provider, "id">,
  ): Promise<{ created: true; provider: Provider } | { created: false; field: "userId" | "npi"; existingId: number }>;
  /** Replaces the stored fields (not the user id) and memberships; another provider's NPI is refused the same way. */
  updateProvider(provider: Provider): Promise<{ updated: true } | { updated: false; field: "npi"; existingId: number }>;
  /** The provider with this row id in the organisation, or undefined. */
  findProviderById(organisationId: number, id: number): Promise<Provider | undefined>;

  listProviders(organisationId: number): Promise<Provider[]>;

  /** The provider with this user id in the organisation, with its clinic memberships, or undefined. */
  findProvider(organisationId: number, userId: number): Promise<Provider | undefined>;
}
