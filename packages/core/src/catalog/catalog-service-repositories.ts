import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { CatalogRepository } from "./catalog-repository.js";

/** The repositories the catalogue services read and write through: each a port of the feature that owns it. */
export interface CatalogServiceRepositories {
  catalog: CatalogRepository;
  organisations: OrganisationRepository;
}
