import type { Prng } from "./prng.js";
import { baselineValue, locations, randomWord, replaceAt, type Json, type Schema } from "./schema-values.js";

/** One operation of /openapi.json, flattened. */
export interface Operation {
  method: string;
  /** The path template, e.g. /apis/v1/patient/{id}. */
  path: string;
  pathParams: string[];
  query: Array<{ name: string; schema: Schema; required: boolean }>;
  body?: Schema;
  auth: boolean;
}

/** A request as it goes on the wire: the path is sent byte for byte (no URL normalisation). */
export interface FuzzRequest {
  operation: string;
  mutation: string;
  method: string;
  path: string;
  headers: Record<string, string>;
  body?: Buffer | undefined;
  /** Send the body with Transfer-Encoding: chunked instead of Content-Length. */
  chunked?: boolean | undefined;
}

/** Tokens the generator can put in Authorization: a valid one and the refused kinds. */
export interface FuzzTokens {
  valid: string;
  expired: string;
  wrongSecret: string;
  unsigned: string;
  noOrganisation: string;
  otherOrganisation: string;
  noScopes: string;
}

export function operationsOf(openapi: any): Operation[] {
  const ops: Operation[] = [];
  for (const [path, methods] of Object.entries<Record<string, any>>(openapi.paths)) {
    for (const [method, op] of Object.entries<any>(methods)) {
      const params: any[] = op.parameters ?? [];
      ops.push({
        method: method.toUpperCase(),
        path,
        pathParams: params.filter((p) => p.in === "path").map((p) => p.name),
        query: params
          .filter((p) => p.in === "query")
          .map((p) => ({ name: p.name, schema: p.schema ?? {}, required: p.required === true })),
        body: op.requestBody?.content?.["application/json"]?.schema,
        auth: Array.isArray(op.security) && op.security.length > 0,
      });
    }
  }
  return ops;
}

const KIB = 1024;
export const OVERSIZE_BYTES = KIB * KIB + 4 * KIB;

const WRONG_TYPES: Json[] = [
  0,
  -1,
  1.5,
  true,
  false,
  null,
  "",
  "x",
  "1",
  "true",
  "null",
  [],
  {},
  [1, "a"],
  { a: 1 },
  [[[]]],
];
const UNICODE = [
  "😀👍🏽👨‍👩‍👧‍👦",
  "مرحبا بالعالم",
  "שלום \u202Eevil\u202C",
  "a\u0000b",
  "\ud800",
  "x\udfffy",
  "Z̤͔ͧ̑̓ä͖̭̈̇lͮ̒ͫ",
  "𝕏".repeat(60),
  "\uFEFFbom",
  "\r\n\t\u2028\u2029",
  "' OR 1=1 --",
  "%s%n%x",
  "<script>alert(1)</script>",
  "../../etc/passwd",
  "\\\\",
  "  ",
  "İıß",
];
/** Raw JSON number texts: JSON.stringify cannot write -0, 2^63 or an overflow. */
const NUMBER_TEXTS = [
  "2147483648",
  "2147483647",
  "-2147483648",
  "4294967296",
  "1e308",
  "-1e308",
  "5e-324",
  "-0",
  "9223372036854775808",
  "-9223372036854775809",
  "18446744073709551616",
  "2147483648",
  "-2147483649",
  "9007199254740993",
  "1e400",
  "-1e400",
  "1e-400",
  "0.30000000000000004",
  "123456789012345678901234567890",
  "1.0",
  "1E2",
];
const NUMBER_STRINGS = ["NaN", "Infinity", "-Infinity", "1e308", "0x10", "١٢٣", "1_000", " 1", "1 ", "+1", "-0", ""];

const BAD_IDS = [
  "-1",
  "0",
  "-0",
  "+1",
  "1.5",
  "1e3",
  "0x1f",
  "99999999999999999999",
  "9223372036854775808",
  "9223372036854775807",
  "2147483648",
  "abc",
  "null",
  "undefined",
  "NaN",
  "__proto__",
  "constructor",
  "..",
  ".",
  "%2e%2e",
  "%2e%2e%2f%2e%2e%2f",
  "..%2F..%2Fetc%2Fpasswd",
  "%00",
  "1%00",
  "%ff",
  "%",
  "%zz",
  "%F0%9F%98%80",
  "%E2%80%AE1",
  "%D9%A1",
  "%201",
  "1%20",
  "1;drop%20table",
  "a".repeat(3000),
  "1".repeat(400),
  "%C0%AF",
  "%ED%A0%80",
];
const BAD_QUERY_VALUES = [
  "",
  "-1",
  "0",
  "1e308",
  "99999999999999999999",
  "abc",
  "true",
  "null",
  "[]",
  "{}",
  "%",
  "%zz",
  "%00",
  "%ff",
  "%F0%9F%98%80",
  "2026-13-45",
  "2026-02-30T25:61:00Z",
  "x".repeat(3000),
  "%E2%80%AE",
  "1,2,3",
  "a%26b%3Dc",
  "__proto__",
  "'%20OR%201=1",
  "..%2F..",
  "-0",
  "NaN",
  "0x10",
];
const CONTENT_TYPES = [
  "text/plain",
  "multipart/form-data; boundary=XyZ",
  "application/x-www-form-urlencoded",
  "application/xml",
  "application/json; charset=latin1",
  "application/vnd.api+json",
  "APPLICATION/JSON",
  "application/json;;;",
  "}{",
  "application/jsonx",
  "json",
  "*/*",
];
const NON_JSON_BODIES = [
  "{",
  "}",
  "[1,",
  '{"a":}',
  "nul",
  "NaN",
  "{'a': 1}",
  '{"a":1}{"b":2}',
  "\u0000",
  '{"a": 1,}',
  "<xml/>",
  "first_name=Ada",
  "\ufeff{}",
  "   ",
  '"unterminated',
];

/** A raw JSON text spliced into a serialised body at a marker string. */
const MARKER = "\u0001RAW\u0001";

export class CaseGenerator {
  constructor(
    private readonly rng: Prng,
    private readonly tokens: FuzzTokens,
  ) {}

  generate(op: Operation): FuzzRequest {
    const kinds: Array<[number, () => FuzzRequest]> = [[3, () => this.baseline(op)]];
    if (op.body) kinds.push([30, () => this.bodyMutation(op)], [8, () => this.transportMutation(op)]);
    if (op.pathParams.length) kinds.push([12, () => this.badPathId(op)]);
    if (op.query.length) kinds.push([10, () => this.badQuery(op)]);
    if (op.auth) kinds.push([6, () => this.badAuth(op)]);
    kinds.push([2, () => this.wrongMethodOrPath(op)]);
    const total = kinds.reduce((sum, [w]) => sum + w, 0);
    let roll = this.rng.next() * total;
    for (const [weight, make] of kinds) if ((roll -= weight) < 0) return make();
    return kinds[0]![1]();
  }

  private request(op: Operation, mutation: string, parts: Partial<FuzzRequest> = {}): FuzzRequest {
    const headers: Record<string, string> = { accept: "application/json" };
    if (op.auth) headers.authorization = `Bearer ${this.tokens.valid}`;
    let body: Buffer | undefined;
    if (op.body) {
      headers["content-type"] = "application/json";
      body = Buffer.from(JSON.stringify(baselineValue(op.body, this.rng)));
    }
    return {
      operation: `${op.method} ${op.path}`,
      mutation,
      method: op.method,
      path: this.pathOf(op) + this.baselineQuery(op),
      headers,
      body,
      ...parts,
      ...(parts.headers ? { headers: { ...headers, ...parts.headers } } : {}),
    };
  }

  private pathOf(op: Operation, override?: { name: string; raw: string }): string {
    return op.path.replace(/\{(\w+)\}/g, (_, name: string) =>
      override?.name === name ? override.raw : String(this.rng.int(1, 6)),
    );
  }

  private baselineQuery(op: Operation): string {
    const pairs = op.query
      .filter((q) => q.required || this.rng.chance(0.3))
      .map((q) => `${q.name}=${encodeURIComponent(String(baselineValue(q.schema, this.rng, q.name)))}`);
    return pairs.length ? `?${pairs.join("&")}` : "";
  }

  private baseline(op: Operation): FuzzRequest {
    return this.request(op, "baseline");
  }

  private bodyText(
    op: Operation,
    mutate: (value: Json, where: Array<string | number>) => { value: Json | undefined; raw?: string; label: string },
  ): { body: Buffer; mutation: string } {
    const value = baselineValue(op.body, this.rng);
    const where = this.rng.pick(locations(value));
    const result = mutate(value, where);
    let text = result.value === undefined ? "" : JSON.stringify(result.value);
    if (result.raw !== undefined) text = text.replace(JSON.stringify(MARKER), () => result.raw!);
    return {
      body: Buffer.from(text),
      mutation: result.label.includes(" at /") ? result.label : `${result.label} at /${where.join("/")}`,
    };
  }

  private bodyMutation(op: Operation): FuzzRequest {
    const rng = this.rng;
    const kind = rng.int(0, 10);
    const { body, mutation } = this.bodyText(op, (value, where) => {
      switch (kind) {
        case 0:
          return { value: replaceAt(value, where, rng.pick(WRONG_TYPES)), label: "wrong type" };
        case 1: {
          const removable = locations(value).filter((l) => l.length > 0);
          const target = removable.length ? rng.pick(removable) : where;
          return { value: replaceAt(value, target, undefined) ?? {}, label: `missing /${target.join("/")}` };
        }
        case 2: {
          const objects = locations(value).filter((l) => isObject(at(value, l)));
          const target = objects.length ? rng.pick(objects) : [];
          const key = rng.pick([
            "extra",
            "__proto__",
            "constructor",
            "prototype",
            "",
            "a.b",
            "toString",
            "hasOwnProperty",
            randomWord(rng),
          ]);
          const extra = `{${JSON.stringify(key)}:${JSON.stringify(rng.pick(WRONG_TYPES))}}`;
          // Spliced as text so a "__proto__" key reaches the server as an own property.
          const holder = at(value, target) as Record<string, Json>;
          const withMarker = replaceAt(value, target, { ...holder, [MARKER]: 0 });
          const text = JSON.stringify(withMarker).replace(`${JSON.stringify(MARKER)}:0`, extra.slice(1, -1));
          return { value: MARKER, raw: text, label: `extra field ${JSON.stringify(key)}` };
        }
        case 3:
          return {
            value: replaceAt(value, where, rng.pick(["x", "é", "😀", "\u0000"]).repeat(Math.ceil((100 * KIB) / 2))),
            label: "huge string (100 KB)",
          };
        case 4:
          return { value: replaceAt(value, where, rng.pick(UNICODE)), label: "unicode" };
        case 5: {
          // Mostly on a number the baseline holds: that is where a limit can get past the schema.
          const numbers = locations(value).filter((l) => typeof at(value, l) === "number");
          const target = numbers.length && rng.chance(0.7) ? rng.pick(numbers) : where;
          return {
            value: replaceAt(value, target, MARKER),
            raw: rng.pick(NUMBER_TEXTS),
            label: `number at a limit at /${target.join("/")}`,
          };
        }
        case 6:
          return { value: replaceAt(value, where, rng.pick(NUMBER_STRINGS)), label: "number-like string" };
        case 7: {
          const depth = rng.pick([10, 64, 65, 100, 500, 1000, 2500, 5000]);
          const arrays = rng.chance(0.5);
          const raw = arrays ? "[".repeat(depth) + "]".repeat(depth) : '{"a":'.repeat(depth) + "1" + "}".repeat(depth);
          return { value: replaceAt(value, where, MARKER), raw, label: `nesting depth ${depth}` };
        }
        case 8:
          return { value: rng.pick<Json>([[], [value], "x", 1, null, true, [[]]]), label: "body not an object" };
        case 9:
          return {
            value: replaceAt(
              value,
              where,
              rng.pick<Json>([
                Array.from({ length: 5000 }, (_, i) => i),
                Array.from({ length: 2000 }, () => "x"),
                Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`k${i}`, i])),
              ]),
            ),
            label: "wide value",
          };
        default:
          return {
            value: MARKER,
            raw: JSON.stringify(value).replace(
              /^\{/,
              `{${JSON.stringify(Object.keys(isObject(value) ? value : {})[0] ?? "a")}:${JSON.stringify(rng.pick(WRONG_TYPES))},`,
            ),
            label: "duplicate key",
          };
      }
    });
    return this.request(op, mutation, { body });
  }

  /** Content types, non-JSON and empty bodies, invalid UTF-8, oversize bodies. */
  private transportMutation(op: Operation): FuzzRequest {
    const rng = this.rng;
    const base = this.request(op, "");
    switch (rng.int(0, 7)) {
      case 0:
        return {
          ...base,
          mutation: "content type",
          headers: { ...base.headers, "content-type": rng.pick(CONTENT_TYPES) },
        };
      case 1: {
        const headers = { ...base.headers };
        delete headers["content-type"];
        return { ...base, mutation: "no content type", headers };
      }
      case 2: {
        const body = Buffer.from(
          `--XyZ\r\nContent-Disposition: form-data; name="first_name"\r\n\r\nAda\r\n--XyZ--\r\n`,
        );
        return {
          ...base,
          mutation: "multipart body",
          headers: { ...base.headers, "content-type": "multipart/form-data; boundary=XyZ" },
          body,
        };
      }
      case 3:
        return { ...base, mutation: "non-JSON body", body: Buffer.from(rng.pick(NON_JSON_BODIES)) };
      case 4:
        return { ...base, mutation: "empty body", body: rng.chance(0.5) ? Buffer.alloc(0) : undefined };
      case 5:
        return {
          ...base,
          mutation: "invalid UTF-8",
          body: Buffer.concat([
            Buffer.from('{"first_name":"'),
            Buffer.from([0xc3, 0x28, 0xff, 0xfe, 0xed, 0xa0, 0x80]),
            Buffer.from('"}'),
          ]),
        };
      case 6:
        return { ...base, mutation: "oversize body (Content-Length)", body: oversizeJson() };
      default:
        return { ...base, mutation: "oversize body (chunked)", body: oversizeJson(), chunked: true };
    }
  }

  private badPathId(op: Operation): FuzzRequest {
    const name = this.rng.pick(op.pathParams);
    const raw = this.rng.pick(BAD_IDS);
    return this.request(op, `path ${name}=${truncate(raw, 40)}`, { path: this.pathOf(op, { name, raw }) });
  }

  private badQuery(op: Operation): FuzzRequest {
    const rng = this.rng;
    const q = rng.pick(op.query);
    const value = rng.pick(BAD_QUERY_VALUES);
    const form = rng.int(0, 4);
    const query =
      form === 0
        ? `${q.name}=${value}&${q.name}=${value}` // repeated
        : form === 1
          ? `${q.name}=${value}&unknown_${randomWord(rng)}=1`
          : form === 2
            ? `${q.name}[]=${value}&${q.name}[x]=1`
            : form === 3
              ? `${q.name}` // no value
              : `${q.name}=${value}`;
    return this.request(op, `query ${truncate(query, 60)}`, { path: this.pathOf(op) + `?${query}` });
  }

  private badAuth(op: Operation): FuzzRequest {
    const t = this.tokens;
    const options: Array<[string, string | undefined]> = [
      ["no token", undefined],
      ["empty bearer", "Bearer "],
      ["bearer only", "Bearer"],
      ["garbage token", "Bearer x.y.z"],
      ["basic auth", "Basic YWxhZGRpbjpvcGVuc2VzYW1l"],
      ["expired token", `Bearer ${t.expired}`],
      ["wrong secret", `Bearer ${t.wrongSecret}`],
      ["unsigned token", `Bearer ${t.unsigned}`],
      ["no organisation", `Bearer ${t.noOrganisation}`],
      ["other organisation", `Bearer ${t.otherOrganisation}`],
      ["no scopes", `Bearer ${t.noScopes}`],
      ["lower-case scheme", `bearer ${t.valid}`],
      ["two tokens", `Bearer ${t.valid} ${t.valid}`],
      ["unicode token", `Bearer ${Buffer.from("ça😀", "utf8").toString("latin1")}`],
      ["8 KB token", `Bearer ${"a".repeat(8 * KIB)}`],
      ["20 KB token", `Bearer ${"a".repeat(20 * KIB)}`],
    ];
    const [label, header] = this.rng.pick(options);
    const base = this.request(op, `auth: ${label}`);
    const headers = { ...base.headers };
    if (header === undefined) delete headers.authorization;
    else headers.authorization = header;
    return { ...base, headers };
  }

  private wrongMethodOrPath(op: Operation): FuzzRequest {
    const method = this.rng.pick(["PUT", "DELETE", "PATCH", "OPTIONS", "TRACE", "PROPFIND"]);
    if (this.rng.chance(0.5)) return { ...this.request(op, `method ${method}`), method };
    const suffix = this.rng.pick(["/x", "/", "//", "/..", "/%2e%2e", "/%", ".json", "?%", "/1/2/3"]);
    return this.request(op, `path suffix ${suffix}`, { path: this.pathOf(op) + suffix });
  }
}

function oversizeJson(): Buffer {
  return Buffer.from(JSON.stringify({ first_name: "A", padding: "x".repeat(OVERSIZE_BYTES) }));
}

function isObject(value: Json | undefined): value is Record<string, Json> {
  return !!value && typeof value === "object" && !Array.isArray(value);
}

function at(value: Json, location: Array<string | number>): Json | undefined {
  let current: any = value;
  for (const key of location) current = current?.[key];
  return current;
}

export function truncate(text: string, max: number): string {
  return text.length > max ? `${text.slice(0, max)}… (${text.length} chars)` : text;
}
