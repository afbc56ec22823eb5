import { DomainError, type ValidationIssue } from "@openpractice/core";

/**
 * VALIDATION_FAILED found by a request schema. Its issues already name the
 * fields as the client sent them, so no contract renames them: a v2 name sent
 * to v1 (`email`) must not come back as the v1 field it resembles.
 */
export class SchemaValidationError extends DomainError {
  constructor(issues: ValidationIssue[]) {
    const error = DomainError.validation(issues);
    super(error.code, error.message, error.details);
  }
}
