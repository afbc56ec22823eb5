/** Checks several modules' rules share, so each shape is defined once. */

/** A positive safe integer id (non-null, non-zero). */
export const isPositiveId = (v: unknown): v is number => typeof v === "number" && Number.isSafeInteger(v) && v > 0;

/** ICD-10-CM code shape: a letter, two characters, then an optional dot and up to four more (M54.5, S83.241A). */
export const ICD10_CODE = /^[A-Z][0-9][0-9A-Z](\.?[0-9A-Z]{1,4})?$/;

/** A CPT or HCPCS billing code: five letters or digits. */
export const BILLING_CODE = /^[0-9A-Z]{5}$/;
