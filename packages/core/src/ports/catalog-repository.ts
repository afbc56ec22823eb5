import type { AppointmentCategory, CancellationReason } from "../catalog/catalog.js";

/** Per-organisation reference data: appointment categories, cancellation reasons, enabled specializations. */
export interface CatalogRepository {
  /** Creates the category unless one with the same name exists in the organisation; returns the stored one (also a concurrent caller's, as last committed). */
  ensureAppointmentCategory(category: Omit<AppointmentCategory, "id">): Promise<AppointmentCategory>;
  listAppointmentCategories(organisationId: number): Promise<AppointmentCategory[]>;
  /** Creates the reason unless its reasonKey exists in the organisation; returns the stored one (also a concurrent caller's, as last committed). */
  ensureCancellationReason(reason: Omit<CancellationReason, "id">): Promise<CancellationReason>;
  listCancellationReasons(organisationId: number): Promise<CancellationReason[]>;
  /** Enables a specialization for the organisation (idempotent). */
  enableSpecialization(organisationId: number, code: string): Promise<void>;
  listSpecializations(organisationId: number): Promise<string[]>;
}
