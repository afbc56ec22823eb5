import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { AccessServiceRepositories } from "./access-service-repositories.js";
import type { ApiClientRepository } from "./api-client-repository.js";
import type { ClientAssertionRepository } from "./client-assertion-repository.js";
import { ACCESS_ERROR_CODES } from "./access-errors.js";
import { ApiClientService } from "./api-client-service.js";
import { OrganisationAccess } from "./organisation-access.js";
import { OrganisationAdminService } from "./organisation-admin-service.js";

/** Setting a practice up and letting its software in: organisations (platform operator), API clients, token grants. */
export const accessModule = defineCoreModule({
  key: "access",
  repositories: owns<{ apiClients: ApiClientRepository; clientAssertions: ClientAssertionRepository }>(),
  createServices: ({ storage, clock }: ModuleDependencies<AccessServiceRepositories>) => ({
    organisationAdmin: new OrganisationAdminService({ storage, clock }),
    organisationAccess: new OrganisationAccess({ storage, clock }),
    apiClients: new ApiClientService({ storage, clock }),
  }),
  errorCodes: ACCESS_ERROR_CODES,
  events: {} as const,
});
