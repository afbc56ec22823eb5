import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import { SSO_ERROR_CODES } from "./sso-errors.js";
import type { SsoGrantRepository } from "./sso-grant-repository.js";
import { SsoService } from "./sso-service.js";
import type { SsoServiceRepositories } from "./sso-service-repositories.js";

/** App-to-web single sign-on (spec 9.4, docs/sso.md): launch codes and their exchange for a web app's token. */
export const ssoModule = defineCoreModule({
  key: "sso",
  repositories: owns<{ ssoGrants: SsoGrantRepository }>(),
  createServices: ({ storage, clock }: ModuleDependencies<SsoServiceRepositories>) => ({
    sso: new SsoService({ storage, clock }),
  }),
  errorCodes: SSO_ERROR_CODES,
  events: {} as const,
});
