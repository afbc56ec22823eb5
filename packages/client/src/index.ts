export {
  createOpenPracticeClient,
  type OpenPracticeClient,
  type OpenPracticeClientOptions,
  type V1Method,
  type V2Method,
} from "./client.js";
export type { components, operations, paths } from "./generated/openapi.js";
export { IDEMPOTENT_OPERATIONS } from "./generated/idempotent-operations.js";
export {
  type ApiResult,
  toV1Result,
  toV2Result,
  type V1Error,
  type V1Result,
  type V2Error,
  type V2Result,
} from "./results.js";
export { type RetryOptions, retryAfterMs, retryingFetch } from "./retry.js";
export {
  type VerifyWebhookInput,
  type VerifyWebhookResult,
  verifyWebhook,
  type WebhookHeaders,
} from "./webhook-signature.js";

import type { components } from "./generated/openapi.js";
/** A named schema of the document: `Schema<"V2Patient">`. */
export type Schema<Name extends keyof components["schemas"]> = components["schemas"][Name];
