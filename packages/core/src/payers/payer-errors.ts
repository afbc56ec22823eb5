import { errorsOf } from "../kernel/domain-error.js";

/** Errors of the payer registry. Codes are public: never renamed or reused. */
export const PAYER_ERROR_CODES = [
  /** No such payer in the registry or the caller's organisation. */
  "PAYER_NOT_FOUND",
  /** The registry or the organisation already has this payer id (details.existing_payer_ref). */
  "DUPLICATE_PAYER",
] as const;

/** Throws one of the codes above (and only those). */
export const payerError = errorsOf(PAYER_ERROR_CODES);
