import type { ErrorCode } from "../errors/error-codes.js";

/** One problem with one input field. `field` is a dot path in domain names (e.g. `address.state`). */
export interface ValidationIssue {
  field: string;
  reason: string;
  value?: unknown;
}

/** Structured, machine-readable detail attached to an error; never contains patient data beyond what the caller sent. */
export interface ErrorDetails {
  issues?: ValidationIssue[];
  [key: string]: unknown;
}

/**
 * The single error type of OpenPractice. Errors are data: a stable code, a
 * human message and optional details. HTTP mapping happens once per contract.
 */
export class DomainError extends Error {
  override readonly name = "DomainError";

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }

  /** An INVALID_PARAMETER error naming one query parameter, its value and what is wrong. */
  static invalidParameter(parameter: string, value: unknown, reason: string): DomainError {
    return new DomainError("INVALID_PARAMETER", `Invalid parameter ${parameter}: ${reason}`, {
      parameter,
      value,
      reason,
    });
  }

  /** UNKNOWN_REFERENCE: ids in the input that name nothing in the organisation, one issue each. */
  static unknownReference(issues: ValidationIssue[]): DomainError {
    const summary = issues.map((i) => `${i.field}: ${i.reason}`).join("; ");
    return new DomainError("UNKNOWN_REFERENCE", `Unknown reference: ${summary}`, { issues });
  }

  /** A VALIDATION_FAILED error listing every issue at once. */
  static validation(issues: ValidationIssue[], message?: string): DomainError {
    const summary = issues.map((i) => `${i.field}: ${i.reason}`).join("; ");
    return new DomainError("VALIDATION_FAILED", message ?? `Invalid input: ${summary}`, { issues });
  }
}

export function isDomainError(value: unknown): value is DomainError {
  return value instanceof DomainError;
}
