import { errorsOf } from "../kernel/domain-error.js";

/** Errors of webhook subscriptions and deliveries. Codes are public: never renamed or reused. */
export const WEBHOOK_ERROR_CODES = [
  /** A webhook subscription's api_version is not one we produce (spec 7.2). */
  "INVALID_API_VERSION",
  /** Unsubscribing would leave the subscription without events; delete it instead (spec 7.2). */
  "CANNOT_REMOVE_ALL_EVENTS",
  /** An active subscription of the organisation already sends one of the events to this URL; details name it. */
  "DUPLICATE_SUBSCRIPTION",
  /** The webhook subscription does not exist in the caller's organisation. */
  "SUBSCRIPTION_NOT_FOUND",
  /** The webhook delivery does not exist for this subscription. */
  "DELIVERY_NOT_FOUND",
] as const;

/** Throws one of the codes above (and only those). */
export const webhookError = errorsOf(WEBHOOK_ERROR_CODES);
