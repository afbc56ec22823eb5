import { errorsOf } from "../kernel/domain-error.js";

/** Errors of patient documents. Codes are public: never renamed or reused. */
export const DOCUMENT_ERROR_CODES = [
  /** The document does not exist for this patient in the caller's organisation (or is out of the token's clinics, or deleted). */
  "PATIENT_DOCUMENT_NOT_FOUND",
  /** The file passed the size limit (details.limit_bytes); the rest of it was not read. */
  "DOCUMENT_TOO_LARGE",
  /** The content's detected type is not accepted, or is not what the client declared (details.detected_type). */
  "DOCUMENT_TYPE_NOT_ALLOWED",
  /** The file part holds no bytes. */
  "DOCUMENT_EMPTY",
  /** The multipart body is not what an upload needs (no file part, two file parts, cut off, not multipart). */
  "DOCUMENT_UPLOAD_INVALID",
  /** The content is not served yet: its malware scan is pending (details.status). */
  "DOCUMENT_NOT_READY",
  /** The malware scan found something: the content is never served (details.signature). */
  "DOCUMENT_QUARANTINED",
  /** The Range asked for lies outside the content (details.size_bytes). */
  "DOCUMENT_RANGE_NOT_SATISFIABLE",
  /** The instance has no document store (createPractice's documentStore): uploads and downloads are refused. */
  "DOCUMENT_STORE_NOT_CONFIGURED",
] as const;

/** Throws one of the codes above (and only those). */
export const documentError = errorsOf(DOCUMENT_ERROR_CODES);
