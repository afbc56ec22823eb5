import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { isValidNpi } from "../organisations/npi.js";

export const CLEARINGHOUSE_LIMITS = Object.freeze({
  urlMax: 2000,
  usernameMax: 200,
  passwordMax: 500,
  /** ISA06/ISA08 are 15 characters. */
  envelopeIdMax: 15,
  /** NM1*1P's name (NM103) is 60 characters. */
  providerNameMax: 60,
  caMax: 20_000,
  timeoutMin: 100,
  timeoutMax: 120_000,
});

/**
 * An organisation's clearinghouse as it set it through the API (docs/insurance.md#clearinghouse-per-organisation):
 * the password sealed with the instance's secret cipher (as webhook signature keys are), never shown again.
 */
export interface ClearinghouseSettings {
  organisationId: number;
  url: string;
  username: string;
  /** AES-256-GCM sealed (SecretCipher). */
  sealedPassword: string;
  submitterId: string;
  receiverId: string;
  providerNpi: string;
  providerName: string;
  timeoutMs: number | null;
  caPem: string | null;
  usage: "P" | "T";
  passwordSetAt: Date;
  lastTestedAt: Date | null;
  /** ok, or the failure kind of the last test (timeout, unavailable, invalid_response). */
  lastTestOutcome: string | null;
  createdAt: Date;
  updatedAt: Date;
}

/** What an administrator sends: every field, the password optional when one is stored (it is kept). */
export interface ClearinghouseSettingsInput {
  url?: unknown;
  username?: unknown;
  password?: unknown;
  submitterId?: unknown;
  receiverId?: unknown;
  providerNpi?: unknown;
  providerName?: unknown;
  timeoutMs?: unknown;
  caPem?: unknown;
  usage?: unknown;
}

/** A text field of `min` to `max` characters; its value is never repeated in the refusal (a password may be one). */
const text = (issues: ValidationIssue[], field: string, value: unknown, max: number, pattern?: RegExp, min = 1) => {
  if (typeof value !== "string" || value.trim() === "" || value.length < min || value.length > max)
    issues.push({ field, reason: `must be ${min} to ${max} characters` });
  else if (pattern && !pattern.test(value)) issues.push({ field, reason: `must match ${pattern.source}` });
};

/** HTTP Basic cannot carry a colon in the user name (RFC 7617 section 2). */
const USERNAME = /^[^:]+$/;

/** X12 element text: no segment, element or sub-element separators (~ * : ^), printable ASCII. */
const X12_TEXT = /^[\x20-\x29\x2b-\x39\x3b-\x5d\x5f-\x7d]+$/;

/**
 * Checks an administrator's settings, every problem at once. `passwordStored`: a password is kept already, so
 * the input may leave it out. The URL must be https without credentials; the NPI must pass its check digit.
 */
export function clearinghouseIssues(input: ClearinghouseSettingsInput, passwordStored: boolean): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  const L = CLEARINGHOUSE_LIMITS;
  let url: URL | undefined;
  try {
    url = typeof input.url === "string" && input.url.length <= L.urlMax ? new URL(input.url) : undefined;
  } catch {
    url = undefined;
  }
  if (!url || url.protocol !== "https:")
    issues.push({ field: "url", reason: `must be an https:// URL of at most ${L.urlMax} characters` });
  else if (url.username || url.password) issues.push({ field: "url", reason: "must not carry credentials" });
  text(issues, "username", input.username, L.usernameMax, USERNAME);
  if (input.password !== undefined || !passwordStored) text(issues, "password", input.password, L.passwordMax);
  // GS02/GS03 take 2 to 15 characters.
  text(issues, "submitterId", input.submitterId, L.envelopeIdMax, X12_TEXT, 2);
  text(issues, "receiverId", input.receiverId, L.envelopeIdMax, X12_TEXT, 2);
  if (typeof input.providerNpi !== "string" || !isValidNpi(input.providerNpi))
    issues.push({
      field: "providerNpi",
      reason: "must be a 10-digit NPI with a valid check digit",
      value: input.providerNpi,
    });
  text(issues, "providerName", input.providerName, L.providerNameMax, X12_TEXT);
  if (
    input.timeoutMs !== undefined &&
    input.timeoutMs !== null &&
    !(
      Number.isInteger(input.timeoutMs) &&
      (input.timeoutMs as number) >= L.timeoutMin &&
      (input.timeoutMs as number) <= L.timeoutMax
    )
  )
    issues.push({
      field: "timeoutMs",
      reason: `must be an integer from ${L.timeoutMin} to ${L.timeoutMax}`,
      value: input.timeoutMs,
    });
  if (
    input.caPem !== undefined &&
    input.caPem !== null &&
    (typeof input.caPem !== "string" ||
      input.caPem.length > L.caMax ||
      !input.caPem.includes("-----BEGIN CERTIFICATE-----"))
  )
    issues.push({ field: "caPem", reason: `must be PEM certificates of at most ${L.caMax} characters` });
  if (input.usage !== undefined && input.usage !== "P" && input.usage !== "T")
    issues.push({ field: "usage", reason: "must be P (production) or T (test)", value: input.usage });
  return issues;
}

export function assertValidClearinghouse(input: ClearinghouseSettingsInput, passwordStored: boolean): void {
  const issues = clearinghouseIssues(input, passwordStored);
  if (issues.length > 0) throw DomainError.validation(issues);
}
