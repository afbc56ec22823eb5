import type { Clinic, DocumentationSettings, Organisation, Plan, Provider } from "../organisations/organisation.js";
import type { Patch } from "../patch.js";

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
    clinic: Omit<Clinic, "id" | "allowDoubleBooking" | "visitLimitWarningOnly"> &
      Partial<Pick<Clinic, "allowDoubleBooking" | "visitLimitWarningOnly">>,
  ): Promise<Clinic>;

  /** Changes a clinic's settings; returns the updated clinic, or undefined when the organisation has no such clinic. */
  updateClinicSettings(organisationId: number, clinicId: number, settings: ClinicSettings): Promise<Clinic | undefined>;

  /** The clinic in this organisation, or undefined (another organisation's clinic is undefined). */
  findClinic(organisationId: number, clinicId: number): Promise<Clinic | undefined>;

  listClinics(organisationId: number): Promise<Clinic[]>;

  /**
   * Creates or updates the provider identified by (organisation, userId) and
   * sets its clinic memberships to exactly `clinicIds`.
   */
  upsertProvider(provider: Omit<Provider, "id">): Promise<Provider>;

  listProviders(organisationId: number): Promise<Provider[]>;

  /** The provider with this user id in the organisation, with its clinic memberships, or undefined. */
  findProvider(organisationId: number, userId: number): Promise<Provider | undefined>;
}
