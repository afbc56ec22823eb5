import { defineCoreModule } from "../modules/core-module.js";
import { ACCESS_ERROR_CODES } from "./access-errors.js";
import { ApiClientService } from "./api-client-service.js";
import { OrganisationAccess } from "./organisation-access.js";
import { OrganisationAdminService } from "./organisation-admin-service.js";

/** Setting a practice up and letting its software in: organisations (platform operator), API clients, token grants. */
export const accessModule = defineCoreModule({
  key: "access",
  createServices: ({ storage, clock }) => ({
    organisationAdmin: new OrganisationAdminService({ storage, clock }),
    organisationAccess: new OrganisationAccess({ storage, clock }),
    apiClients: new ApiClientService({ storage, clock }),
  }),
  errorCodes: ACCESS_ERROR_CODES,
  events: {} as const,
});
