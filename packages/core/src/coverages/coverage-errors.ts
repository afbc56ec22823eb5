import { errorsOf } from "../kernel/domain-error.js";

/** Errors of patients' coverages. Codes are public: never renamed or reused. */
export const COVERAGE_ERROR_CODES = [
  /** No such coverage of this patient in the caller's organisation (or it was deleted). */
  "COVERAGE_NOT_FOUND",
  /** The coverage is used by open cases (details.service_case_ids): discharge them or take it off them first. */
  "COVERAGE_IN_USE",
] as const;

/** Throws one of the codes above (and only those). */
export const coverageError = errorsOf(COVERAGE_ERROR_CODES);
