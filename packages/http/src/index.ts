export * from "./handler.js";
export * from "./request-hooks.js";
export * from "./http-module.js";
export * from "./http-modules.js";
export * from "./auth/authenticator.js";
export * from "./auth/claims.js";
export * from "./auth/jwt-authenticator.js";
export * from "./auth/bearer-challenge.js";
export * from "./header-overflow.js";
export {
  API_CONTENT_SECURITY_POLICY,
  DOCS_CONTENT_SECURITY_POLICY,
  type SecurityHeaderOptions,
} from "./security-headers.js";
export * from "./contracts/v1-contract.js";
export * from "./contracts/v2-contract.js";
export type { DocsAssets } from "./system/system-routes.js";
export { DEFAULT_BODY_LIMIT_BYTES } from "./request-body.js";
export { describeThrown } from "./last-resort.js";
export { v1SummaryPath } from "./soap/v1-soap-workflow-contract.js";
export * from "./auth/token-issuer.js";
export { v2OrganisationView, FIRST_CLIENT_SCOPES } from "./access/v2-organisation-routes.js";
export { v2ApiClientView } from "./access/v2-api-client-routes.js";
export { CLIENT_ASSERTION_TYPE, type JwksFetch } from "./access/client-assertion.js";
