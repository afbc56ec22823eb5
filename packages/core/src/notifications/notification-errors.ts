import { errorsOf } from "../kernel/domain-error.js";

/** Errors of notifications and push devices. Codes are public: never renamed or reused. */
export const NOTIFICATION_ERROR_CODES = [
  /** The push device does not exist in the caller's organisation. */
  "DEVICE_NOT_FOUND",
  /** The notification does not exist in the caller's organisation (other organisations' notifications included). */
  "NOTIFICATION_NOT_FOUND",
  /** Web Push has no VAPID key on this server (an embedder configured no push transport). */
  "PUSH_NOT_CONFIGURED",
] as const;

/** Throws one of the codes above (and only those). */
export const notificationError = errorsOf(NOTIFICATION_ERROR_CODES);
