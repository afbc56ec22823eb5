/**
 * The stable catalogue of domain error codes. Codes are part of the public
 * contract: integrators branch on them, so a code is never renamed or reused.
 * Each wire contract (v1 envelope, v2 error body) maps these codes exactly once,
 * in packages/http.
 */
export const ERROR_CODES = [
  /** A request body or a domain input broke one or more rules; details.issues lists them. */
  "VALIDATION_FAILED",
  /** A query parameter is out of range or malformed (v2 list parameters). */
  "INVALID_PARAMETER",
  /** The request body is not parseable JSON. */
  "MALFORMED_JSON",
  /** The request body exceeds the configured size limit. */
  "PAYLOAD_TOO_LARGE",
  /** The request body is not JSON (Content-Type). */
  "UNSUPPORTED_MEDIA_TYPE",
  /** No valid bearer token: missing, malformed, wrongly signed, unsigned or expired. */
  "UNAUTHORIZED",
  /** A valid token without the scope the operation needs. */
  "INSUFFICIENT_PERMISSIONS",
  /** The patient does not exist in the caller's organisation (other organisations' patients included). */
  "PATIENT_NOT_FOUND",
  /** The clinic does not exist in the caller's organisation. */
  "CLINIC_NOT_FOUND",
  /** A patient with the same name and date of birth already exists in the organisation. */
  "DUPLICATE_PATIENT",
  /**
   * An id in the request body (patient, doctor, clinic, category, case,
   * cancellation reason) names nothing in the caller's organisation;
   * details.issues names the field.
   */
  "UNKNOWN_REFERENCE",
  /** The appointment does not exist in the caller's organisation. */
  "APPOINTMENT_NOT_FOUND",
  /** The doctor already has an appointment overlapping the requested time; details name it. */
  "SCHEDULE_CONFLICT",
  /** The action is not allowed from the resource's current state; details name the state and the allowed actions. */
  "INVALID_TRANSITION",
  /** The case does not exist in the caller's organisation. */
  "CASE_NOT_FOUND",
  /** The referring physician does not exist in the caller's organisation. */
  "REFERRING_PHYSICIAN_NOT_FOUND",
  /** The authorization does not exist in the caller's organisation. */
  "AUTHORIZATION_NOT_FOUND",
  /** The organisation already has a referring physician with this NPI; details name it. */
  "DUPLICATE_REFERRING_PHYSICIAN",
  /** A tracked case or its authorization has no visits left; details say how many of how many are used. */
  "VISIT_LIMIT_REACHED",
  /** A tracked case has no active authorization whose window contains the visit date. */
  "NO_VALID_AUTHORIZATION",
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
  /** The push device does not exist in the caller's organisation. */
  "DEVICE_NOT_FOUND",
  /** The notification does not exist in the caller's organisation (other organisations' notifications included). */
  "NOTIFICATION_NOT_FOUND",
  /** An idempotency key the organisation already used for a notification with other content; details name that notification. */
  "IDEMPOTENCY_KEY_REUSED",
  /** Web Push has no VAPID key on this server (an embedder configured no push transport). */
  "PUSH_NOT_CONFIGURED",
  /** A SOAP note cannot be written on a cancelled appointment (spec 7.1, v1 code 4001). */
  "APPOINTMENT_CANCELLED",
  /** The SOAP note (context) does not exist in the caller's organisation. */
  "SOAP_NOTE_NOT_FOUND",
  /** The form submission does not exist in the caller's organisation. */
  "FORM_SUBMISSION_NOT_FOUND",
  /** A form write carried a version other than the current one plus 1; details give the current version. */
  "VERSION_CONFLICT",
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
  /** The organisation has used its request budget for the current window. */
  "RATE_LIMIT_EXCEEDED",
  /** No route matches the path. */
  "ROUTE_NOT_FOUND",
  /** The path exists but not for this HTTP method. */
  "METHOD_NOT_ALLOWED",
  /** The database (or another dependency) could not be reached; safe to retry. */
  "SERVICE_UNAVAILABLE",
  /** A defect: anything not classified above. Never used for client mistakes. */
  "INTERNAL_ERROR",
] as const;

export type ErrorCode = (typeof ERROR_CODES)[number];
