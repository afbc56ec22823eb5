import type { Principal } from "@openpractice/core";
import { describe, expect, expectTypeOf, it } from "vitest";
import { pathIdKind } from "./contracts/path-id.js";
import { v2FieldsParameter } from "./contracts/v2-contract.js";
import { routeGroup, scopePair, type Static } from "./define-route.js";
import { resourceRoutes } from "./resource-routes.js";
import type { RouteContext, RouteDefinition } from "./route.js";

interface Thing {
  id: number;
  name: string;
  colour: string;
}
const THING_ID = pathIdKind("CLINIC_NOT_FOUND", "thing_id");
const thingView = (t: Thing) => ({ id: String(t.id), name: t.name, colour: t.colour });
const thingSchema = { type: "object", title: "Thing" } as const;
const thingFieldsSchema = { type: "object", title: "ThingFields" } as const;
const fieldsParameter = v2FieldsParameter(["id", "name", "colour"] as const);

const createSchema = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: { name: { type: "string" }, colour: { type: "string", enum: ["red", "blue"] } },
} as const;
const listQuery = {
  type: "object",
  additionalProperties: false,
  properties: { page: { type: "integer" }, per_page: { type: "integer" }, fields: fieldsParameter },
} as const;

const principal: Principal = { organisationId: 1, userId: 7, name: null, scopes: [], clinicIds: [], roles: [] };

/** The context the handler table gives a route: what the request carried, already validated. */
function context(
  path: string,
  input: { body?: unknown; query?: Record<string, unknown>; ids?: Record<string, number> },
) {
  const url = new URL(`http://127.0.0.1${path}`);
  const ctx: RouteContext = {
    request: new Request(url),
    url,
    params: {},
    principal,
    requestId: "req_1",
    now: new Date("2025-03-14T15:00:00.000Z"),
    basePath: "/emr",
    body: async () => input.body,
    query: () => input.query ?? {},
    ids: input.ids ?? {},
  };
  return ctx;
}

function things(store: Thing[]) {
  const route = routeGroup({ contract: "v2", tags: ["Things"], auth: true, scopes: scopePair("things") });
  const resource = resourceRoutes(route, {
    path: "/v2/things",
    item: "/v2/things/:thing_id",
    ids: { thing_id: THING_ID },
    view: thingView,
    reply: thingSchema,
    fields: { parameter: fieldsParameter, reply: thingFieldsSchema },
    conflict: "DUPLICATE_THING: details.existing_thing_id",
  });
  const find = (id: number) => store.find((t) => t.id === id) ?? { id, name: "?", colour: "red" };
  return [
    resource.create({
      operationId: "v2CreateThing",
      summary: "Add a thing.",
      description: "The new thing",
      requestBody: createSchema,
      async handle(ctx) {
        const body = await ctx.body();
        expectTypeOf(body).toEqualTypeOf<Static<typeof createSchema>>();
        const thing = { id: store.length + 1, name: body.name, colour: body.colour ?? "red" };
        store.push(thing);
        return thing;
      },
    }),
    resource.list({
      operationId: "v2ListThings",
      summary: "The things.",
      description: "A page of things",
      query: listQuery,
      async handle(ctx) {
        const q = ctx.query();
        expectTypeOf(q.page).toEqualTypeOf<number | undefined>();
        const perPage = q.per_page ?? 2;
        const page = q.page ?? 1;
        return { rows: store.slice((page - 1) * perPage, page * perPage), page, perPage, total: store.length };
      },
    }),
    resource.get({
      operationId: "v2GetThing",
      summary: "Read a thing.",
      description: "The thing",
      async handle(ctx) {
        expectTypeOf(ctx.ids).toEqualTypeOf<{ readonly thing_id: number }>();
        expectTypeOf(ctx.params).toEqualTypeOf<Readonly<Record<"thing_id", string>>>();
        return find(ctx.ids.thing_id);
      },
    }),
    resource.update({
      operationId: "v2UpdateThing",
      summary: "Change a thing.",
      description: "The thing after the change",
      requestBody: { ...createSchema, required: [] },
      async handle(ctx) {
        const thing = find(ctx.ids.thing_id);
        const { name, colour } = await ctx.body();
        Object.assign(thing, { name: name ?? thing.name, colour: colour ?? thing.colour });
        return thing;
      },
    }),
    resource.deactivate({
      operationId: "v2DeactivateThing",
      summary: "Deactivate a thing.",
      description: "The deactivated thing",
      scopes: ["admin"],
      responses: { "409": { description: "THING_IN_USE" } },
      handle: async (ctx) => find(ctx.ids.thing_id),
    }),
  ];
}

const byId = (routes: RouteDefinition[], operationId: string) => {
  const route = routes.find((r) => r.operationId === operationId);
  if (!route) throw new Error(`no route ${operationId}`);
  return route;
};

describe("resourceRoutes", () => {
  it("declares each operation's method, path, ids, scopes and replies, in the order listed", () => {
    const routes = things([]);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual([
      "POST /v2/things",
      "GET /v2/things",
      "GET /v2/things/:thing_id",
      "PATCH /v2/things/:thing_id",
      "DELETE /v2/things/:thing_id",
    ]);
    const [create, list, get, update, deactivate] = routes.map((r) => r);
    expect(create).toMatchObject({ scopes: ["things:write", "write"], requestBody: createSchema });
    expect(create?.ids).toBeUndefined();
    expect(create?.responses["201"]).toEqual({ description: "The new thing", schema: thingSchema });
    expect(create?.responses["409"]?.description).toBe("DUPLICATE_THING: details.existing_thing_id");
    expect(list).toMatchObject({ scopes: ["things:read", "read"], readsOnly: true, query: listQuery });
    expect(list?.responses["200"]?.schema).toMatchObject({
      properties: { data: { type: "array", items: thingFieldsSchema } },
    });
    expect(get).toMatchObject({ readsOnly: true, ids: { thing_id: THING_ID } });
    expect(get?.query).toEqual({
      type: "object",
      additionalProperties: false,
      properties: { fields: fieldsParameter },
    });
    expect(get?.responses["200"]?.schema).toBe(thingFieldsSchema);
    expect(get?.responses["404"]?.description).toBe("CLINIC_NOT_FOUND");
    expect(update?.readsOnly).toBeUndefined();
    expect(update?.responses["200"]?.schema).toBe(thingSchema);
    expect(update?.responses["409"]).toBeDefined();
    expect(deactivate?.scopes).toEqual(["admin"]);
    expect(deactivate?.responses["409"]?.description).toBe("THING_IN_USE");
  });

  it("answers create with 201, the view and a Location under the mount path", async () => {
    const store: Thing[] = [];
    const response = await byId(things(store), "v2CreateThing").handle(
      context("/v2/things", { body: { name: "Anvil", colour: "blue" } }),
    );
    expect(response.status).toBe(201);
    expect(response.headers.get("location")).toBe("/emr/v2/things/1");
    expect(await response.json()).toEqual({ id: "1", name: "Anvil", colour: "blue" });
    expect(store).toHaveLength(1);
  });

  it("answers list with v2's data, pagination and meta, with only the fields asked for", async () => {
    const store = [1, 2, 3].map((id) => ({ id, name: `T${id}`, colour: "red" }));
    const response = await byId(things(store), "v2ListThings").handle(
      context("/v2/things", { query: { page: 2, per_page: 2, fields: "name" } }),
    );
    const body = await response.json();
    expect(response.status).toBe(200);
    expect(body.data).toEqual([{ id: "3", name: "T3" }]);
    expect(body.pagination).toMatchObject({ current_page: 2, total_pages: 2, total_count: 3, has_next: false });
    expect(body.meta).toMatchObject({ request_id: "req_1", api_version: "2.0-beta" });
  });

  it("answers get with the view, or the fields asked for; update and deactivate with the view", async () => {
    const store = [{ id: 5, name: "Hammer", colour: "red" }];
    const routes = things(store);
    const get = (query: Record<string, unknown>) =>
      byId(routes, "v2GetThing").handle(context("/v2/things/5", { query, ids: { thing_id: 5 } }));
    expect(await (await get({})).json()).toEqual({ id: "5", name: "Hammer", colour: "red" });
    expect(await (await get({ fields: "colour" })).json()).toEqual({ id: "5", colour: "red" });
    const updated = await byId(routes, "v2UpdateThing").handle(
      context("/v2/things/5", { body: { colour: "blue" }, ids: { thing_id: 5 } }),
    );
    expect(updated.status).toBe(200);
    expect(await updated.json()).toEqual({ id: "5", name: "Hammer", colour: "blue" });
    const deactivated = await byId(routes, "v2DeactivateThing").handle(
      context("/v2/things/5", { ids: { thing_id: 5 } }),
    );
    expect(deactivated.status).toBe(200);
    expect(await deactivated.json()).toEqual({ id: "5", name: "Hammer", colour: "blue" });
  });

  it("refuses a record path that is not its collection's and one id", () => {
    const route = routeGroup({ contract: "v2", tags: ["T"], auth: true, scopes: scopePair("t") });
    const base = { view: thingView, reply: thingSchema };
    expect(() => resourceRoutes(route, { ...base, path: "/v2/a", item: "/v2/a/:x/b/:y", ids: {} as never })).toThrow(
      /one id/,
    );
    expect(() =>
      resourceRoutes(route, { ...base, path: "/v2/p/:p/a", item: "/v2/p/:p/a/:id", ids: {} as never }),
    ).toThrow(/without parameters/);
  });

  it("refuses a list whose query and the resource disagree on fields=", () => {
    const route = routeGroup({ contract: "v2", tags: ["T"], auth: true, scopes: scopePair("t") });
    const plain = resourceRoutes(route, {
      path: "/v2/a",
      item: "/v2/a/:id",
      ids: { id: THING_ID },
      view: thingView,
      reply: thingSchema,
    });
    const list = {
      operationId: "v2ListA",
      summary: "",
      description: "",
      handle: async () => ({ rows: [], page: 1, perPage: 1, total: 0 }),
    };
    expect(() => plain.list({ ...list, query: listQuery })).toThrow(/v2ListA: the list query declares fields=/);
    const withFields = resourceRoutes(route, {
      path: "/v2/b",
      item: "/v2/b/:id",
      ids: { id: THING_ID },
      view: thingView,
      reply: thingSchema,
      fields: { parameter: fieldsParameter, reply: thingFieldsSchema },
    });
    expect(() =>
      withFields.list({ ...list, query: { type: "object", properties: { page: { type: "integer" } } } }),
    ).toThrow(/fields=/);
  });
});
