import type { Prng } from "./prng.js";

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
export type Schema = Record<string, any>;

/** A value that mostly fits the schema ("valid-ish"): the start of every body mutation. */
export function baselineValue(schema: Schema | undefined, rng: Prng, name = "", depth = 0): Json {
  if (!schema || depth > 8) return null;
  if ("const" in schema) return schema.const;
  if (Array.isArray(schema.enum)) return rng.pick(schema.enum);
  if (Array.isArray(schema.anyOf) || Array.isArray(schema.oneOf))
    return baselineValue(rng.pick(schema.anyOf ?? schema.oneOf), rng, name, depth);
  const types: string[] = Array.isArray(schema.type)
    ? schema.type.filter((t: string) => t !== "null")
    : schema.type
      ? [schema.type]
      : [schema.properties ? "object" : "string"];
  const type = types.length ? rng.pick(types) : "null";
  switch (type) {
    case "object": {
      const out: Record<string, Json> = {};
      const required = new Set<string>(schema.required ?? []);
      for (const [key, sub] of Object.entries<Schema>(schema.properties ?? {})) {
        if (required.has(key) || rng.chance(0.5)) out[key] = baselineValue(sub, rng, key, depth + 1);
      }
      // Free-form maps (partialResponse, attributes): a few dotted keys.
      if (!schema.properties && schema.additionalProperties !== false)
        for (let i = 0; i < Math.max(1, schema.minProperties ?? 0); i++)
          out[`response.field${rng.int(1, 9)}`] = randomWord(rng);
      return out;
    }
    case "array": {
      const count = Math.max(schema.minItems ?? 0, Math.min(schema.maxItems ?? 3, rng.int(0, 2)));
      return Array.from({ length: count }, () => baselineValue(schema.items, rng, name, depth + 1));
    }
    case "integer":
    case "number": {
      if (/(^|_)id$|Id$/.test(name))
        return /doctor|user|provider|therapist/.test(name) ? rng.pick([101, 102, 103]) : rng.int(1, 6);
      if (/fee|amount/.test(name)) return rng.int(0, 50);
      const min = schema.minimum ?? 0;
      const max = schema.maximum ?? min + 100;
      return type === "integer"
        ? rng.int(Math.ceil(min), Math.floor(Math.min(max, min + 1000)))
        : min + rng.next() * Math.min(max - min, 1000);
    }
    case "boolean":
      return rng.chance(0.5);
    case "null":
      return null;
    default:
      return baselineString(schema, rng, name);
  }
}

/** Values the domain rules accept for fields whose schema alone does not say enough. */
const FIELD_HINTS: Array<[RegExp, (rng: Prng) => string]> = [
  [/^state$/, () => "TX"],
  [/zip|postal/, (rng) => String(rng.int(10000, 99999))],
  [/user_type/, (rng) => rng.pick(["PATIENT", "PROVIDER"])],
  [/service_case_id/, (rng) => `SERVICE_CASE_${rng.int(1, 4)}`],
  [/^endpoint$/, (rng) => `https://fcm.googleapis.com/fcm/send/${randomWord(rng)}`],
  [/url$/, (rng) => `https://example.com/${randomWord(rng)}`],
  [/icd/i, (rng) => rng.pick(["M54.5", "S83.511A", "M25.561"])],
  [/cpt_code|^code$/, (rng) => rng.pick(["97110", "97140", "97530"])],
];

function baselineString(schema: Schema, rng: Prng, name: string): string {
  const hint = FIELD_HINTS.find(([pattern]) => pattern.test(name));
  if (hint && !schema.format) return hint[1](rng);
  const day = () => `20${rng.int(20, 30)}-${pad(rng.int(1, 12))}-${pad(rng.int(1, 28))}`;
  switch (schema.format) {
    case "date":
      return day();
    case "date-time":
      return `${day()}T${pad(rng.int(0, 23))}:${pad(rng.pick([0, 15, 30, 45]))}:00Z`;
    case "email":
      return `${randomWord(rng)}@example.com`;
    case "uri":
    case "url":
      return `https://example.com/${randomWord(rng)}`;
    case "uuid":
      return "3f1c9a52-8c4e-4b5e-9d2a-0d6f7e8a9b10";
  }
  if (/(^|_)id$|Id$/.test(name)) return String(rng.int(1, 6));
  if (/npi/i.test(name)) return String(rng.int(1_000_000_000, 1_999_999_999));
  if (/phone|mobile|fax/i.test(name)) return `+1555${rng.int(1_000_000, 9_999_999)}`;
  const word = randomWord(rng);
  const min = schema.minLength ?? 1;
  const max = schema.maxLength ?? 40;
  return word.padEnd(min, "x").slice(0, max);
}

const pad = (n: number) => String(n).padStart(2, "0");

export function randomWord(rng: Prng): string {
  const letters = "abcdefghijklmnopqrstuvwxyz";
  return Array.from({ length: rng.int(4, 12) }, () => letters[rng.int(0, 25)]).join("");
}

/** Every location in a JSON value: [] is the root, then keys and indexes. */
export function locations(
  value: Json,
  prefix: Array<string | number> = [],
  out: Array<Array<string | number>> = [],
): Array<Array<string | number>> {
  out.push(prefix);
  if (Array.isArray(value)) value.forEach((v, i) => locations(v, [...prefix, i], out));
  else if (value && typeof value === "object")
    for (const [k, v] of Object.entries(value)) locations(v, [...prefix, k], out);
  return out;
}

/** A copy of root with the value at location replaced (or removed when replacement is undefined). */
export function replaceAt(
  root: Json,
  location: Array<string | number>,
  replacement: Json | undefined,
): Json | undefined {
  if (location.length === 0) return replacement;
  const [head, ...rest] = location;
  if (Array.isArray(root)) {
    const copy = [...root];
    const inner = replaceAt(copy[head as number]!, rest, replacement);
    if (inner === undefined) copy.splice(head as number, 1);
    else copy[head as number] = inner;
    return copy;
  }
  const copy = { ...(root as Record<string, Json>) };
  const inner = replaceAt(copy[head as string]!, rest, replacement);
  if (inner === undefined) delete copy[head as string];
  else copy[head as string] = inner;
  return copy;
}
