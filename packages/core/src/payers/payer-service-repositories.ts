import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { PayerRepository } from "./payer-repository.js";

/** The repositories the payer registry read and write through: each a port of the feature that owns it. */
export interface PayerServiceRepositories {
  payers: PayerRepository;
  organisations: OrganisationRepository;
}
