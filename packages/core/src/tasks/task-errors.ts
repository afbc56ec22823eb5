import { errorsOf } from "../kernel/domain-error.js";

/** Errors of tasks. Codes are public: never renamed or reused. */
export const TASK_ERROR_CODES = [
  /** The task does not exist in the caller's organisation (or is out of the token's clinics). */
  "TASK_NOT_FOUND",
  /** The task is done or cancelled: only reopening it (status open) or commenting is allowed (details.current_status). */
  "TASK_CLOSED",
] as const;

/** Throws one of the codes above (and only those). */
export const taskError = errorsOf(TASK_ERROR_CODES);
