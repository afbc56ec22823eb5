import { Ajv2020, type ErrorObject, type ValidateFunction } from "ajv/dist/2020.js";
import addFormatsModule from "ajv-formats";

// ajv-formats ships CommonJS with a default export; normalise both import shapes.
const addFormats = ((addFormatsModule as unknown as { default?: typeof addFormatsModule }).default ??
  addFormatsModule) as unknown as (ajv: Ajv2020) => Ajv2020;

type Json = any;
export const DOC_ID = "https://openpractice.test/openapi.json";
const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * The schema with every object that lists its properties closed (additionalProperties false unless it says
 * otherwise): a property the server sends that the document does not name fails as surely as a missing one.
 */
export function closed(node: unknown, key = ""): unknown {
  if (Array.isArray(node)) return key === "examples" || key === "enum" ? node : node.map((n) => closed(n));
  if (!isObject(node)) return node;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(node)) out[k] = k === "examples" || k === "const" ? v : closed(v, k);
  if (key !== "properties" && isObject(node.properties) && node.additionalProperties === undefined)
    out.additionalProperties = false;
  return out;
}

/** Validates replies against the document: the schema of the operation's status, $refs resolved into components. */
export class ReplyChecker {
  private readonly ajv: Ajv2020;
  private readonly compiled = new Map<string, ValidateFunction | string>();
  /** METHOD template status, for every reply checked. */
  readonly covered = new Set<string>();

  constructor(private readonly doc: Json) {
    this.ajv = documentAjv(doc);
  }

  /** The media type and validator of a documented reply, or why there is none. */
  private validator(method: string, template: string, status: number, mediaType: string): ValidateFunction | string {
    const key = `${method} ${template} ${status} ${mediaType}`;
    let fn = this.compiled.get(key);
    if (fn === undefined) {
      const op = this.doc.paths[template]?.[method.toLowerCase()];
      const response = op?.responses?.[String(status)];
      const schema = response?.content?.[mediaType]?.schema;
      if (!op) fn = `${method} ${template} is not in the document`;
      else if (!response) fn = `${method} ${template} answered ${status}, which the document does not list`;
      else if (!schema)
        fn = `${method} ${template} ${status}: no ${mediaType} schema (has ${Object.keys(response.content ?? {})})`;
      else {
        const absolute = JSON.parse(
          JSON.stringify(closed(schema)).replaceAll('"#/components/', `"${DOC_ID}#/components/`),
        );
        fn = this.ajv.compile(absolute);
      }
      this.compiled.set(key, fn);
    }
    return fn;
  }

  /** The problems of one reply (empty when the document describes it). */
  problems(method: string, template: string, status: number, contentType: string | null, body: unknown): string[] {
    this.covered.add(`${method} ${template} ${status}`);
    // A reply without a body (204, or a 202 whose news is in its headers) must be documented without one.
    if (status === 204 || (body === undefined && contentType === null)) {
      const response = this.doc.paths[template]?.[method.toLowerCase()]?.responses?.[String(status)];
      return response && !response.content ? [] : [`${method} ${template} ${status} is not documented without a body`];
    }
    const mediaType = (contentType ?? "").split(";")[0]!.trim();
    const fn = this.validator(method, template, status, mediaType);
    if (typeof fn === "string") return [fn];
    if (fn(body)) return [];
    return (fn.errors ?? []).map(
      (e: ErrorObject) =>
        `${method} ${template} ${status}: ${e.instancePath || "(body)"} ${e.message} ${JSON.stringify(e.params)}`,
    );
  }
}

/** An ajv (JSON Schema 2020-12, formats checked) holding the document's components, closed, at DOC_ID. */
export function documentAjv(doc: Json): Ajv2020 {
  const ajv = new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  ajv.addSchema({ $id: DOC_ID, components: closed(doc.components) } as never);
  return ajv;
}
