import type { ValidationIssue } from "@openpractice/core";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { JsonSchema } from "./json-schema.js";
import { SchemaValidationError } from "./schema-validation-error.js";

// ajv-formats ships CommonJS with a default export; normalise both import shapes.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ?? addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

function fieldPath(e: ErrorObject): string {
  const base = e.instancePath.split("/").filter(Boolean).join(".");
  const child = e.keyword === "required" ? (e.params as { missingProperty: string }).missingProperty : e.keyword === "additionalProperties" ? (e.params as { additionalProperty: string }).additionalProperty : undefined;
  return [base, child].filter(Boolean).join(".") || "(body)";
}

function reason(e: ErrorObject): string {
  const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return "is required";
    case "additionalProperties": {
      // A request schema may name the field the client probably meant (x-field-hints: sent name → hint).
      const hint = (parent["x-field-hints"] as Record<string, string> | undefined)?.[(e.params as { additionalProperty: string }).additionalProperty];
      return hint ? `is not a known field (${hint})` : "is not a known field";
    }
    case "type":
      return `must be of type ${[e.params.type].flat().join(" or ")}`;
    case "enum":
      return `must be one of ${(e.params as { allowedValues: unknown[] }).allowedValues.filter((v) => v !== null).join(", ")}`;
    case "format":
      return `must be a valid ${(e.params as { format: string }).format}`;
    case "minLength":
      return e.params.limit === 1 ? "must not be empty" : `must be at least ${e.params.limit} characters`;
    case "maxLength":
      return `must be at most ${e.params.limit} characters`;
    case "minimum":
    case "maximum":
      return parent.minimum !== undefined && parent.maximum !== undefined ? `must be between ${parent.minimum} and ${parent.maximum}` : `must be ${e.keyword === "minimum" ? "at least" : "at most"} ${e.params.limit}`;
    case "pattern":
      return typeof parent.description === "string" ? `must be ${parent.description}` : "has an invalid format";
    case "minProperties":
      return "must contain at least one field";
    case "not":
      return typeof parent.description === "string" ? `must not be sent: ${parent.description}` : "must not be sent";
    default:
      return e.message ?? "is invalid";
  }
}

function valueAt(data: unknown, e: ErrorObject): unknown {
  if (e.keyword === "required" || e.keyword === "additionalProperties") return undefined;
  return e.instancePath
    .split("/")
    .filter(Boolean)
    .reduce<unknown>((node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined), data);
}

/** ajv errors as validation issues naming each field once (the first problem per field). */
export function toIssues(errors: ErrorObject[] | null | undefined, data: unknown): ValidationIssue[] {
  const seen = new Set<string>();
  const issues: ValidationIssue[] = [];
  for (const e of errors ?? []) {
    // For nullable unions ajv reports both branches; the type error of the first branch is the useful one.
    if (e.keyword === "anyOf") continue;
    const field = fieldPath(e);
    if (seen.has(field)) continue;
    seen.add(field);
    const value = valueAt(data, e);
    issues.push(value === undefined ? { field, reason: reason(e) } : { field, reason: reason(e), value });
  }
  return issues;
}

/** Compiles schemas once per handler instance (no shared global ajv). */
export class SchemaValidator {
  private readonly ajv: Ajv;
  private readonly cache = new Map<JsonSchema, ValidateFunction>();

  constructor(options: { coerceTypes?: boolean } = {}) {
    this.ajv = new Ajv({ allErrors: true, strict: false, verbose: true, coerceTypes: options.coerceTypes ?? false });
    addFormats(this.ajv);
  }

  private compiled(schema: JsonSchema): ValidateFunction {
    let fn = this.cache.get(schema);
    if (!fn) {
      fn = this.ajv.compile(schema);
      this.cache.set(schema, fn);
    }
    return fn;
  }

  /** Returns the issues (empty when valid). Coercing validators convert values in place. */
  check(schema: JsonSchema, data: unknown): ValidationIssue[] {
    const fn = this.compiled(schema);
    return fn(data) ? [] : toIssues(fn.errors, data);
  }

  /** Throws VALIDATION_FAILED listing every issue. */
  assert(schema: JsonSchema, data: unknown): void {
    const issues = this.check(schema, data);
    if (issues.length > 0) throw new SchemaValidationError(issues);
  }
}
