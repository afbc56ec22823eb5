import type { Principal } from "../auth/principal.js";
import { toPageWindow } from "../kernel/paging.js";
import type { Storage } from "../kernel/storage.js";
import type { CatalogServiceRepositories } from "./catalog-service-repositories.js";
import type { AppointmentCategory, CancellationReason } from "./catalog.js";

/** The organisation's reference data, read-only through the API. */
export class CatalogService {
  constructor(private readonly deps: { storage: Storage<CatalogServiceRepositories> }) {}

  appointmentCategories(principal: Principal): Promise<AppointmentCategory[]> {
    return this.deps.storage.repositories.catalog.listAppointmentCategories(principal.organisationId);
  }

  cancellationReasons(principal: Principal): Promise<CancellationReason[]> {
    return this.deps.storage.repositories.catalog.listCancellationReasons(principal.organisationId);
  }

  /** A page of the appointment types, oldest first: active ones unless `status` says otherwise. */
  async appointmentTypePage(principal: Principal, query: ReferencePageQuery) {
    return pageByStatus(await this.appointmentCategories(principal), (c) => c.active, query);
  }

  /** A page of the cancellation reasons, oldest first: active ones unless `status` says otherwise. */
  async cancellationReasonPage(principal: Principal, query: ReferencePageQuery) {
    return pageByStatus(await this.cancellationReasons(principal), (r) => r.status === "ACTIVE", query);
  }

  specializations(principal: Principal): Promise<string[]> {
    return this.deps.storage.repositories.catalog.listSpecializations(principal.organisationId);
  }
}

/** A list request of reference data (a short list, paged here). */
export interface ReferencePageQuery {
  page?: number | undefined;
  perPage?: number | undefined;
  status?: "active" | "inactive" | "all" | undefined;
}

function pageByStatus<T>(all: readonly T[], active: (t: T) => boolean, query: ReferencePageQuery) {
  const { page, size, offset } = toPageWindow(query.page, query.perPage, { defaultSize: 50, maxSize: 100 });
  const status = query.status ?? "active";
  const matching = all.filter((t) => status === "all" || active(t) === (status === "active"));
  return { page, perPage: size, total: matching.length, rows: matching.slice(offset, offset + size) };
}
