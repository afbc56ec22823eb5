import { MAX_STORED_ID, SERVICE_CASE_ID_PATTERN } from "@openpractice/core";
import type { JsonSchema } from "../validation/json-schema.js";

const shape = { pattern: SERVICE_CASE_ID_PATTERN, description: "a case id or SERVICE_CASE_<id>" } as const;

/** A case id in a body: 12, "12" or "SERVICE_CASE_12" (core's requireServiceCaseId reads it). */
export const caseIdBodySchema = {
  type: ["integer", "string"],
  minimum: 1,
  maximum: MAX_STORED_ID,
  ...shape,
} as const;

/** A case id in a query string: 12 or SERVICE_CASE_12. */
export const caseIdQuerySchema = { type: "string", ...shape } as const;
