import type { DomainError, ErrorDetails, ValidationIssue } from "@openpractice/core";
import { SchemaValidationError } from "../validation/schema-validation-error.js";
import { boundedEcho, ECHO_MAX_ISSUES, truncated } from "./bounded-echo.js";

/** Maps domain field paths (e.g. `address.postalCode`) to one contract's wire names. */
export type FieldNames = Readonly<Record<string, string>>;

/** The wire name of a domain path: the whole path if mapped, else each segment (list indexes stay as they are). */
function wireName(field: string, names: FieldNames): string {
  return (
    names[field] ??
    field
      .split(".")
      .map((segment) => names[segment] ?? segment)
      .join(".")
  );
}

export function renameIssues(
  issues: ValidationIssue[] | undefined,
  names: FieldNames | undefined,
): ValidationIssue[] | undefined {
  if (!issues || !names) return issues;
  return issues.map((i) => ({ ...i, field: wireName(i.field, names) }));
}

/** Codes whose message is a list of field issues, rebuilt in wire names. */
const MESSAGE_PREFIX: Partial<Record<DomainError["code"], string>> = {
  VALIDATION_FAILED: "Invalid input",
  UNKNOWN_REFERENCE: "Unknown reference",
};

/** The longest message an error body carries (a message may quote a path or a parser's words). */
const MESSAGE_MAX_LENGTH = 1000;

/** An issue as the wire shows it: field and reason bounded, the value echoed within bounds (boundedEcho). */
function boundedIssue(issue: ValidationIssue): ValidationIssue {
  const out: ValidationIssue = { field: truncated(String(issue.field)), reason: truncated(String(issue.reason)) };
  if (issue.value !== undefined) out.value = boundedEcho(issue.value);
  return out;
}

/**
 * The error's message, issues (in wire names; the message is rebuilt when they
 * were renamed) and other details, each bounded (bounded-echo.ts): the one
 * place both contracts take what an error shows. Request-schema issues keep
 * the names the client sent (SchemaValidationError).
 */
export function describeForWire(
  error: DomainError,
  names: FieldNames | undefined,
): { message: string; issues?: ValidationIssue[] | undefined; details: ErrorDetails } {
  const { issues: raw, ...rest } = error.details;
  const details = boundedEcho(rest) as ErrorDetails;
  // Schema issues already carry the field names as sent, so they are never renamed.
  const renamed = error instanceof SchemaValidationError ? raw : renameIssues(raw, names);
  const issues = renamed?.slice(0, ECHO_MAX_ISSUES).map(boundedIssue);
  const prefix = MESSAGE_PREFIX[error.code];
  const more = renamed && renamed.length > ECHO_MAX_ISSUES ? `; and ${renamed.length - ECHO_MAX_ISSUES} more` : "";
  const message =
    !issues || renamed === raw || !prefix
      ? error.message
      : `${prefix}: ${issues.map((i) => `${i.field}: ${i.reason}`).join("; ")}${more}`;
  return { message: truncated(message, MESSAGE_MAX_LENGTH), issues, details };
}
