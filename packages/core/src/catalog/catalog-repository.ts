import type { AppointmentCategory, CancellationReason } from "./catalog.js";

/** Per-organisation reference data: appointment categories, cancellation reasons, enabled specializations. */
export interface CatalogRepository {
  /** Creates the category unless one with the same name exists in the organisation; returns the stored one (also a concurrent caller's, as last committed). */
  ensureAppointmentCategory(
    category: Omit<AppointmentCategory, "id" | "colour" | "active"> &
      Partial<Pick<AppointmentCategory, "colour" | "active">>,
  ): Promise<AppointmentCategory>;
  /** Inserts; `created: false` with the holder's id when the organisation has a category of this name (unique key). */
  insertAppointmentCategory(
    category: Omit<AppointmentCategory, "id">,
  ): Promise<{ created: true; category: AppointmentCategory } | { created: false; existingId: number }>;
  /** Replaces the stored fields; `updated: false` with the holder's id when the new name is another category's. */
  updateAppointmentCategory(
    category: AppointmentCategory,
  ): Promise<{ updated: true } | { updated: false; existingId: number }>;
  findAppointmentCategory(organisationId: number, id: number): Promise<AppointmentCategory | undefined>;
  listAppointmentCategories(organisationId: number): Promise<AppointmentCategory[]>;
  /** Creates the reason unless its reasonKey exists in the organisation; returns the stored one (also a concurrent caller's, as last committed). */
  ensureCancellationReason(reason: Omit<CancellationReason, "id">): Promise<CancellationReason>;
  listCancellationReasons(organisationId: number): Promise<CancellationReason[]>;
  /** Inserts; `created: false` with the holder's id when the organisation has a reason with this key (unique key). */
  insertCancellationReason(
    reason: Omit<CancellationReason, "id">,
  ): Promise<{ created: true; reason: CancellationReason } | { created: false; existingId: number }>;
  /** Replaces label, fee and status (the key does not change). */
  updateCancellationReason(reason: CancellationReason): Promise<void>;
  findCancellationReason(organisationId: number, id: number): Promise<CancellationReason | undefined>;
  /** Enables a specialization for the organisation (idempotent). */
  enableSpecialization(organisationId: number, code: string): Promise<void>;
  listSpecializations(organisationId: number): Promise<string[]>;
}
