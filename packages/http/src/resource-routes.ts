import type { JSONSchema } from "json-schema-to-ts";
import { jsonResponse } from "./contracts/json-response.js";
import type { PathIdKind } from "./contracts/path-id.js";
import { v2FieldList, v2ListBody, v2ListSchema, v2Project } from "./contracts/v2-contract.js";
import type { BodyOf, PathParams, QueryOf, ResponseSpec, RouteBuilder } from "./define-route.js";
import type { RouteContext, RouteDefinition } from "./route.js";
import type { JsonSchema } from "./validation/json-schema.js";

const V2_ERROR_BODY = { $ref: "#/components/schemas/V2Error" } as const;

/** The id kind of every parameter of path `P`: a record's path declares its id. */
type PathIds<P extends string> = { readonly [K in PathParams<P>]: PathIdKind };
type NoIds = Record<never, PathIdKind>;
/** The `fields` query parameter as v2FieldsParameter declares it: a string, so `ctx.query().fields` is one. */
type FieldsParameter = JsonSchema & { readonly type: "string" };

/** A record as v2 shows it: the view's `id` is the one a client sees, in the Location of a created record too. */
export type ResourceView = Readonly<Record<string, unknown>> & { readonly id: string };

/** What a list handler returns: one page of records, where it stands and the exact total. */
export interface ResourcePage<T> {
  readonly rows: readonly T[];
  readonly page: number;
  readonly perPage: number;
  readonly total: number;
}

/** The resource all its operations share: where it lives, how one record is shown, what a 409 means. */
export interface ResourceDescriptor<T, C extends string, P extends string> {
  /** The collection, e.g. /v2/clinics. */
  path: C;
  /** A record, e.g. /v2/clinics/:clinic_id: the collection and one id. */
  item: P;
  /** The id kind of the record's path id, e.g. `{ clinic_id: CLINIC_ID }`. */
  ids: PathIds<P>;
  /** The record as v2 shows it. */
  view(record: T): ResourceView;
  /** The reply schema of `view`: the answer of create, update and deactivate, and of get and list without `fields`. */
  reply: JsonSchema;
  /**
   * Where `fields=` picks the fields sent: the query parameter (v2FieldsParameter) and the reply schema that requires
   * only `id` (fieldSelection). Get takes the parameter; the list query must declare it.
   */
  fields?: { parameter: FieldsParameter; reply: JsonSchema };
  /** The 409 of create and update (a uniqueness refusal), e.g. "DUPLICATE_CLINIC: details.existing_clinic_id …". */
  conflict?: string;
}

/** What each operation names itself; the helper adds the path, ids, access, readsOnly and the success reply. */
export interface ResourceOperation {
  operationId: string;
  summary: string;
  /** The success reply, e.g. "The new clinic". */
  description: string;
  /** Instead of the group's read or write scopes (an administrator's operation). */
  scopes?: readonly string[];
  auditResource?: string;
  /** What a token restricted to clinics is refused here (RouteDefinition.clinicRestriction). */
  clinicRestriction?: string;
  /** Replies of this operation's own (a 409 with its own meaning); an entry wins over the helper's. */
  responses?: Record<string, ResponseSpec>;
}

/** The handler of an operation: what it does, returning the record (or page) the helper answers with. */
type Handler<P extends string, B, Q, I, R> = {
  // RouteSpec's handle, written out the same way: through a type alias, inference goes past TypeScript's depth.
  handle(ctx: RouteContext<BodyOf<B>, QueryOf<Q>, PathParams<P>, { readonly [K in keyof I]: number }>): Promise<R>;
};

/** The text of a validated `fields` query parameter, if one was sent. */
function fieldsOf(query: unknown): string | undefined {
  return typeof query === "object" && query !== null && "fields" in query && typeof query.fields === "string"
    ? query.fields
    : undefined;
}

const declaresFields = (query: JSONSchema) => typeof query === "object" && query.properties?.fields !== undefined;

/**
 * The usual operations of a v2 resource on top of a group's `route`: create (POST on the collection, 201 with
 * Location), list (GET on the collection, a page), get, update (PATCH) and deactivate (DELETE that keeps the record
 * and answers it). Each builder returns one route, in the order the caller lists them (the order of the OpenAPI
 * document); each handler is the caller's function that does the operation and returns the record, which the helper
 * shows with `view`. `ctx.body()`, `ctx.query()` and `ctx.ids` are typed as with `route`.
 */
export function resourceRoutes<T, const C extends string, const P extends `${C}/:${string}`>(
  route: RouteBuilder,
  resource: ResourceDescriptor<T, C, P>,
) {
  const { path, item, ids, view, reply, fields } = resource;
  if (path.includes(":") || !item.startsWith(`${path}/:`) || !/^[a-z_]+$/.test(item.slice(path.length + 2)))
    throw new Error(`${item}: a resource's record is its collection's path (without parameters) and one id`);
  const conflict =
    resource.conflict === undefined ? {} : { "409": { description: resource.conflict, schema: V2_ERROR_BODY } };
  const shown = fields?.reply ?? reply;
  const named = (op: ResourceOperation) => ({
    operationId: op.operationId,
    summary: op.summary,
    ...(op.scopes ? { scopes: op.scopes } : {}),
    ...(op.auditResource ? { auditResource: op.auditResource } : {}),
    ...(op.clinicRestriction ? { clinicRestriction: op.clinicRestriction } : {}),
  });

  // The routes with a generic body or query schema name their type arguments: inferred, they go past TypeScript's
  // instantiation depth.
  return {
    create<const B extends JSONSchema>(
      op: ResourceOperation & { requestBody: B } & Handler<C, B, undefined, NoIds, T>,
    ): RouteDefinition {
      return route<C, B, undefined, NoIds>({
        method: "POST",
        path,
        ...named(op),
        access: "write",
        requestBody: op.requestBody,
        responses: { "201": { description: op.description, schema: reply }, ...conflict, ...op.responses },
        async handle(ctx) {
          const created = view(await op.handle(ctx));
          return jsonResponse(201, created, { location: `${ctx.basePath}${path}/${created.id}` });
        },
      });
    },

    list<const Q extends JSONSchema>(
      op: ResourceOperation & { query: Q } & Handler<C, undefined, Q, NoIds, ResourcePage<T>>,
    ): RouteDefinition {
      // A fields parameter the list accepts but ignores, or one it lacks, would break what the document promises.
      if (declaresFields(op.query) !== (fields !== undefined))
        throw new Error(`${op.operationId}: the list query declares fields= exactly when the resource has fields`);
      return route<C, undefined, Q, NoIds>({
        method: "GET",
        path,
        readsOnly: true,
        ...named(op),
        access: "read",
        query: op.query,
        responses: { "200": { description: op.description, schema: v2ListSchema(shown) }, ...op.responses },
        async handle(ctx) {
          const page = await op.handle(ctx);
          return jsonResponse(200, v2ListBody(ctx, page, page.rows.map(view), fieldsOf(ctx.query())));
        },
      });
    },

    get(op: ResourceOperation & Handler<P, undefined, undefined, PathIds<P>, T>): RouteDefinition {
      return route({
        method: "GET",
        path: item,
        ids,
        readsOnly: true,
        ...named(op),
        access: "read",
        ...(fields
          ? { query: { type: "object", additionalProperties: false, properties: { fields: fields.parameter } } }
          : {}),
        responses: { "200": { description: op.description, schema: shown }, ...op.responses },
        async handle(ctx) {
          const record = view(await op.handle(ctx));
          return jsonResponse(200, fields ? v2Project(record, v2FieldList(fieldsOf(ctx.query()))) : record);
        },
      });
    },

    update<const B extends JSONSchema>(
      op: ResourceOperation & { requestBody: B } & Handler<P, B, undefined, PathIds<P>, T>,
    ): RouteDefinition {
      return route<P, B, undefined, PathIds<P>>({
        method: "PATCH",
        path: item,
        ids,
        ...named(op),
        access: "write",
        requestBody: op.requestBody,
        responses: { "200": { description: op.description, schema: reply }, ...conflict, ...op.responses },
        async handle(ctx) {
          return jsonResponse(200, view(await op.handle(ctx)));
        },
      });
    },

    deactivate(op: ResourceOperation & Handler<P, undefined, undefined, PathIds<P>, T>): RouteDefinition {
      return route({
        method: "DELETE",
        path: item,
        ids,
        ...named(op),
        access: "write",
        responses: { "200": { description: op.description, schema: reply }, ...op.responses },
        async handle(ctx) {
          return jsonResponse(200, view(await op.handle(ctx)));
        },
      });
    },
  };
}
