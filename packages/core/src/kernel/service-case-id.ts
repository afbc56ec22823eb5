import { DomainError } from "./domain-error.js";
import { MAX_STORED_ID } from "./stored-id.js";

/** The service case id as the v1 contract and events show it (spec 6.1: a string); null stays null. */
export function serviceCaseId(id: number): string;
export function serviceCaseId(id: number | null): string | null;
export function serviceCaseId(id: number | null): string | null {
  return id === null ? null : `SERVICE_CASE_${id}`;
}

/**
 * A case id as clients send it, everywhere one is taken: the id (12, as a number
 * or a string) or the service case id the API shows (SERVICE_CASE_12); at most 15
 * digits. Request schemas check the same shape with this pattern.
 */
export const SERVICE_CASE_ID_PATTERN = "^(SERVICE_CASE_)?[1-9][0-9]{0,14}$";
const SERVICE_CASE_ID = new RegExp(SERVICE_CASE_ID_PATTERN);

/** Accepts 12 or "12" or "SERVICE_CASE_12"; anything else is undefined. */
export function parseServiceCaseId(raw: unknown): number | undefined {
  const text = typeof raw === "number" ? String(raw) : typeof raw === "string" ? raw : "";
  if (!SERVICE_CASE_ID.test(text)) return undefined;
  // A case id is a row key: a larger one names no case.
  const id = Number(text.replace(/^SERVICE_CASE_/, ""));
  return id <= MAX_STORED_ID ? id : undefined;
}

/** The case id sent in `field` (12, "12" or "SERVICE_CASE_12"); VALIDATION_FAILED naming the field otherwise. */
export function requireServiceCaseId(raw: unknown, field: string): number {
  const id = parseServiceCaseId(raw);
  if (id === undefined)
    throw DomainError.validation([{ field, reason: "must be a case id or SERVICE_CASE_<id>", value: raw }]);
  return id;
}
