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
 * `C` is the codes the thrower may use: a feature throws through the
 * constructor `errorsOf` gives it for its own codes (and those of the
 * features below it), so a mistyped code fails to compile; the package root
 * exports the class typed with every code (`ErrorCode`).
 */
export class DomainError<C extends string = string> extends Error {
  override readonly name = "DomainError";

  constructor(
    readonly code: C,
    message: string,
    readonly details: ErrorDetails = {},
  ) {
    super(message);
  }

  /** An INVALID_PARAMETER error naming one query parameter, its value and what is wrong. */
  static invalidParameter(parameter: string, value: unknown, reason: string): DomainError<"INVALID_PARAMETER"> {
    return new DomainError("INVALID_PARAMETER", `Invalid parameter ${parameter}: ${reason}`, {
      parameter,
      value,
      reason,
    });
  }

  /** UNKNOWN_REFERENCE: ids in the input that name nothing in the organisation, one issue each. */
  static unknownReference(issues: ValidationIssue[]): DomainError<"UNKNOWN_REFERENCE"> {
    const summary = issues.map((i) => `${i.field}: ${i.reason}`).join("; ");
    return new DomainError("UNKNOWN_REFERENCE", `Unknown reference: ${summary}`, { issues });
  }

  /** A VALIDATION_FAILED error listing every issue at once. */
  static validation(issues: ValidationIssue[], message?: string): DomainError<"VALIDATION_FAILED"> {
    const summary = issues.map((i) => `${i.field}: ${i.reason}`).join("; ");
    return new DomainError("VALIDATION_FAILED", message ?? `Invalid input: ${summary}`, { issues });
  }
}

/** Builds a DomainError with one of the codes it was made for. */
export type DomainErrorFactory<C extends string> = (code: C, message: string, details?: ErrorDetails) => DomainError<C>;

/**
 * The error constructor of a feature: typed to the codes it declares (its module lists the same array), so a
 * code outside them, mistyped or another feature's, fails to compile.
 */
export function errorsOf<const C extends readonly string[]>(_codes: C): DomainErrorFactory<C[number]> {
  return (code, message, details) => new DomainError(code, message, details);
}
