import { errorsOf } from "./domain-error.js";

/** Errors any route can answer: input that fails the wire contract, authentication, routing and outages. Codes are public: never renamed or reused. */
export const SYSTEM_ERROR_CODES = [
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
  /**
   * An id in the request body (patient, doctor, clinic, category, case,
   * cancellation reason) names nothing in the caller's organisation;
   * details.issues names the field.
   */
  "UNKNOWN_REFERENCE",
  /** The action is not allowed from the resource's current state; details name the state and the allowed actions. */
  "INVALID_TRANSITION",
  /** A form write carried a version other than the current one plus 1; details give the current version. */
  "VERSION_CONFLICT",
  /** An idempotency key the organisation already used for a notification with other content; details name that notification. */
  "IDEMPOTENCY_KEY_REUSED",
  /** No route matches the path. */
  "ROUTE_NOT_FOUND",
  /** The path exists but not for this HTTP method. */
  "METHOD_NOT_ALLOWED",
  /** The database (or another dependency) could not be reached; safe to retry. */
  "SERVICE_UNAVAILABLE",
  /** A defect: anything not classified above. Never used for client mistakes. */
  "INTERNAL_ERROR",
] as const;

/** The error constructor of the kernel's codes, which every feature may throw. */
export const systemError = errorsOf(SYSTEM_ERROR_CODES);
