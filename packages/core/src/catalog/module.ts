import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { CatalogRepository } from "./catalog-repository.js";
import type { CatalogServiceRepositories } from "./catalog-service-repositories.js";
import { CATALOG_ERROR_CODES } from "./catalog-errors.js";
import { CatalogAdminService } from "./catalog-admin-service.js";
import { CatalogService } from "./catalog-service.js";

/** The organisation's appointment categories and cancellation reasons. */
export const catalogModule = defineCoreModule({
  key: "catalog",
  repositories: owns<{ catalog: CatalogRepository }>(),
  createServices: ({ storage, clock }: ModuleDependencies<CatalogServiceRepositories>) => ({
    catalog: new CatalogService({ storage }),
    catalogAdmin: new CatalogAdminService({ storage, clock }),
  }),
  errorCodes: CATALOG_ERROR_CODES,
  events: {},
});
