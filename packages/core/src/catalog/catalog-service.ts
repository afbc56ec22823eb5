import type { Principal } from "../auth/principal.js";
import type { Storage } from "../ports/storage.js";
import type { AppointmentCategory, CancellationReason } from "./catalog.js";

/** The organisation's reference data, read-only through the API. */
export class CatalogService {
  constructor(private readonly deps: { storage: Storage }) {}

  appointmentCategories(principal: Principal): Promise<AppointmentCategory[]> {
    return this.deps.storage.repositories.catalog.listAppointmentCategories(principal.organisationId);
  }

  cancellationReasons(principal: Principal): Promise<CancellationReason[]> {
    return this.deps.storage.repositories.catalog.listCancellationReasons(principal.organisationId);
  }

  specializations(principal: Principal): Promise<string[]> {
    return this.deps.storage.repositories.catalog.listSpecializations(principal.organisationId);
  }
}
