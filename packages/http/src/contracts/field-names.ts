import type { DomainError, ValidationIssue } from "@openpractice/core";
import { SchemaValidationError } from "../validation/schema-validation-error.js";

/** Maps domain field paths (e.g. `address.postalCode`) to one contract's wire names. */
export type FieldNames = Readonly<Record<string, string>>;

/** The wire name of a domain path: the whole path if mapped, else each segment (list indexes stay as they are). */
function wireName(field: string, names: FieldNames): string {
  return names[field] ?? field.split(".").map((segment) => names[segment] ?? segment).join(".");
}

export function renameIssues(issues: ValidationIssue[] | undefined, names: FieldNames | undefined): ValidationIssue[] | undefined {
  if (!issues || !names) return issues;
  return issues.map((i) => ({ ...i, field: wireName(i.field, names) }));
}

/** Codes whose message is a list of field issues, rebuilt in wire names. */
const MESSAGE_PREFIX: Partial<Record<DomainError["code"], string>> = { VALIDATION_FAILED: "Invalid input", UNKNOWN_REFERENCE: "Unknown reference" };

/** The error's message and issues in wire names (the message is rebuilt when issues were renamed). */
export function describeForWire(error: DomainError, names: FieldNames | undefined): { message: string; issues?: ValidationIssue[] } {
  if (error instanceof SchemaValidationError) return { message: error.message, issues: error.details.issues };
  const issues = renameIssues(error.details.issues, names);
  const prefix = MESSAGE_PREFIX[error.code];
  if (!issues || issues === error.details.issues || !prefix) return { message: error.message, issues };
  return { message: `${prefix}: ${issues.map((i) => `${i.field}: ${i.reason}`).join("; ")}`, issues };
}
