/** A FHIR resource as JSON (the facade builds plain objects; tests validate them with @medplum/core). */
export type FhirResource = { resourceType: string; id?: string } & Record<string, unknown>;

/**
 * A FHIR element as JSON without what FHIR forbids (json.html): no null or undefined properties, no empty arrays,
 * objects or strings. Resources are built with optional parts left undefined and passed through here.
 */
export function compact<T>(value: T): T {
  if (Array.isArray(value)) return value.map(compact).filter((v) => !isEmpty(v)) as T;
  if (value && typeof value === "object" && !(value instanceof Date)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      const c = compact(v);
      if (!isEmpty(c)) out[k] = c;
    }
    return out as T;
  }
  return value;
}

function isEmpty(v: unknown): boolean {
  if (v === undefined || v === null || v === "") return true;
  if (Array.isArray(v)) return v.length === 0;
  if (typeof v === "object" && !(v instanceof Date)) return Object.keys(v).length === 0;
  return false;
}
