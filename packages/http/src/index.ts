export * from "./handler.js";
export * from "./auth/authenticator.js";
export * from "./auth/claims.js";
export * from "./auth/jwt-authenticator.js";
export * from "./contracts/v1-contract.js";
export * from "./contracts/v2-contract.js";
export type { DocsAssets } from "./system/system-routes.js";
export { DEFAULT_BODY_LIMIT_BYTES } from "./request-body.js";
export { v1SummaryPath } from "./soap/v1-soap-workflow-contract.js";
