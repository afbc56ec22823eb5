import { MAX_STORED_ID, type ValidationIssue } from "@openpractice/core";
import { Ajv, type ErrorObject, type ValidateFunction } from "ajv";
import addFormatsModule from "ajv-formats";
import type { JsonSchema } from "./json-schema.js";
import { SchemaValidationError } from "./schema-validation-error.js";
import { textIssues } from "./text-issues.js";

// ajv-formats ships CommonJS with a default export; normalise both import shapes.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv) => Ajv;

function fieldPath(e: ErrorObject): string {
  const base = e.instancePath.split("/").filter(Boolean).join(".");
  const child =
    e.keyword === "required"
      ? (e.params as { missingProperty: string }).missingProperty
      : e.keyword === "additionalProperties"
        ? (e.params as { additionalProperty: string }).additionalProperty
        : undefined;
  return [base, child].filter(Boolean).join(".") || "(body)";
}

function reason(e: ErrorObject): string {
  const parent = (e.parentSchema ?? {}) as Record<string, unknown>;
  switch (e.keyword) {
    case "required":
      return "is required";
    case "additionalProperties": {
      // A request schema may name the field the client probably meant (x-field-hints: sent name → hint).
      const hint = (parent["x-field-hints"] as Record<string, string> | undefined)?.[
        (e.params as { additionalProperty: string }).additionalProperty
      ];
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
      return parent.minimum !== undefined && parent.maximum !== undefined
        ? `must be between ${parent.minimum} and ${parent.maximum}`
        : `must be ${e.keyword === "minimum" ? "at least" : "at most"} ${e.params.limit}`;
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
    .reduce<unknown>(
      (node, key) => (node && typeof node === "object" ? (node as Record<string, unknown>)[key] : undefined),
      data,
    );
}

/** Fields whose values a refusal never repeats. */
const SECRET_FIELD = /(^|\.)(password|secret|client_secret)$/;

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
    // A secret sent wrong (a password too long) is named, never echoed back.
    const value = SECRET_FIELD.test(field) ? undefined : valueAt(data, e);
    issues.push(value === undefined ? { field, reason: reason(e) } : { field, reason: reason(e), value });
  }
  return issues;
}

/** Integer fields capped at MAX_STORED_ID unless their schema sets a maximum: ids, and page numbers. */
const CAPPED_NAME = /(^|_)ids?$|Id$|^page$/;
/**
 * Ids that are not our row keys: users' ids come from the identity provider and a payer's registration number
 * from outside; their columns are 64-bit, so they may be any safe integer.
 */
const EXTERNAL_ID_NAME = /^(doctor_id|therapist_ids|payer_reg_id)$/;

/**
 * A copy of the schema where every integer id field (`patient_id`, `therapist_ids` items, `soapContextId`)
 * and `page` without its own maximum is capped at MAX_STORED_ID: a larger id names nothing, PostgreSQL
 * would refuse it as out of range for integer, and a page of 1e308 made an offset no engine takes
 * (each was a 500 instead of the field being named).
 */
export function withIdLimits<S>(schema: S, name = ""): S {
  if (Array.isArray(schema)) return schema.map((s) => withIdLimits(s, name)) as S;
  if (!schema || typeof schema !== "object") return schema;
  const out: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(schema)) {
    if (key === "properties" && value && typeof value === "object")
      out[key] = Object.fromEntries(Object.entries(value).map(([prop, sub]) => [prop, withIdLimits(sub, prop)]));
    else if (key === "items" || key === "anyOf" || key === "oneOf" || key === "allOf")
      out[key] = withIdLimits(value, name);
    else out[key] = value;
  }
  const types = [out.type].flat();
  if (CAPPED_NAME.test(name) && (types.includes("integer") || types.includes("number")) && out.maximum === undefined) {
    out.maximum = EXTERNAL_ID_NAME.test(name) ? Number.MAX_SAFE_INTEGER : MAX_STORED_ID;
  }
  return out as S; // the same schema with a maximum added: what it accepts is a subset of S's
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
      fn = this.ajv.compile(withIdLimits(schema));
      this.cache.set(schema, fn);
    }
    return fn;
  }

  /** Returns the issues (empty when valid). Coercing validators convert values in place. */
  check(schema: JsonSchema, data: unknown): ValidationIssue[] {
    const fn = this.compiled(schema);
    const issues = fn(data) ? [] : toIssues(fn.errors, data);
    const reported = new Set(issues.map((i) => i.field));
    return [...issues, ...textIssues(data).filter((i) => !reported.has(i.field))];
  }

  /** Throws VALIDATION_FAILED listing every issue. */
  assert(schema: JsonSchema, data: unknown): void {
    const issues = this.check(schema, data);
    if (issues.length > 0) throw new SchemaValidationError(issues);
  }
}
