/** Errors of the per-organisation request budget. Codes are public: never renamed or reused. */
export const RATE_LIMIT_ERROR_CODES = [
  /** The organisation has used its request budget for the current window. */
  "RATE_LIMIT_EXCEEDED",
] as const;
