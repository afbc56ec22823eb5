import { errorsOf } from "../kernel/domain-error.js";

/** Errors of SOAP notes, treatment sheets and completion. Codes are public: never renamed or reused. */
export const SOAP_ERROR_CODES = [
  /** The SOAP note (context) does not exist in the caller's organisation. */
  "SOAP_NOTE_NOT_FOUND",
  /** The form submission does not exist in the caller's organisation. */
  "FORM_SUBMISSION_NOT_FOUND",
  /** The treatment sheet does not exist in the caller's organisation. */
  "TREATMENT_SHEET_NOT_FOUND",
  /** The note already has a treatment sheet (one per note); details name it, update it instead. */
  "TREATMENT_SHEET_EXISTS",
  /** The caller may not sign, co-sign or return this note (not its rendering or supervising physician). */
  "SIGNER_NOT_ALLOWED",
  /** The note cannot be signed or completed yet; details name the missing sections, over-billed lines or missing signatures. */
  "NOTE_INCOMPLETE",
  /** The note's PDF summary does not exist (not completed yet, or still being rendered). */
  "DOCUMENT_NOT_FOUND",
  /** The plan of care does not exist in the caller's organisation. */
  "PLAN_OF_CARE_NOT_FOUND",
  /** The note has no claim (not completed, or the organisation does not auto-submit). */
  "CLAIM_NOT_FOUND",
  /**
   * Medicare Part B: the note would be the 10th treatment day since the last evaluation or progress report, so it
   * must be the progress report (type PROGRESS_REPORT); details name the days and the last report.
   */
  "PROGRESS_REPORT_DUE",
] as const;

/** Throws one of the codes above (and only those). */
export const soapError = errorsOf(SOAP_ERROR_CODES);
