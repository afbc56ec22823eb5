import type { ApiClientRepository } from "../access/api-client-repository.js";
import type { AuditRepository } from "../audit/audit-repository.js";
import type { SsoGrantRepository } from "./sso-grant-repository.js";

/** What single sign-on reads and writes: its grants, the web app's API client (access's port), the audit trail. */
export interface SsoServiceRepositories {
  ssoGrants: SsoGrantRepository;
  apiClients: ApiClientRepository;
  audit: AuditRepository;
}
