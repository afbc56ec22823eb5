import { DomainError, MAX_STORED_ID, type Principal } from "@openpractice/core";
import { describe, expect, expectTypeOf, it } from "vitest";
import { pathIdKind, readPathId } from "./contracts/path-id.js";
import { type PathParams, routeGroup, scopePair, type Static } from "./define-route.js";
import type { RouteContext } from "./route.js";
import { nullable } from "./validation/json-schema.js";

const ITEM_ID = pathIdKind("PATIENT_NOT_FOUND", "patient_id");
const ok = async () => new Response(null, { status: 204 });

const bodySchema = {
  type: "object",
  additionalProperties: false,
  required: ["name"],
  properties: {
    name: { type: "string", minLength: 1 },
    age: nullable({ type: "integer", minimum: 0 }),
    tags: { type: "array", items: { type: "string" } },
    size: { type: "integer", default: 20 },
  },
} as const;
const querySchema = {
  type: "object",
  additionalProperties: false,
  properties: { page: { type: "integer", default: 1 }, status: { type: "string", enum: ["a", "b"] } },
} as const;

describe("the route helper", () => {
  const v1 = routeGroup({ contract: "v1", tags: ["Things"], auth: true, scopes: scopePair("things") });

  it("types the handler's inputs from the route's own schemas and path", () => {
    // Compile-time assertions (npm test runs tsc over this file); the runtime checks below keep the test honest.
    expectTypeOf<PathParams<"/v1/a/:id/b/:other_id">>().toEqualTypeOf<"id" | "other_id">();
    expectTypeOf<PathParams<"/v1/a">>().toEqualTypeOf<never>();
    expectTypeOf<Static<typeof bodySchema>>().toEqualTypeOf<{
      name: string;
      age?: number | null;
      tags?: string[];
      size?: number;
    }>();
    const route = v1({
      method: "POST",
      path: "/v1/things/:id",
      operationId: "makeThing",
      summary: "Make a thing.",
      access: "write",
      ids: { id: ITEM_ID },
      requestBody: bodySchema,
      query: querySchema,
      responses: { "204": { description: "Made" } },
      async handle(ctx) {
        expectTypeOf(ctx.ids.id).toEqualTypeOf<number>();
        expectTypeOf(ctx.params.id).toEqualTypeOf<string>();
        expectTypeOf(await ctx.body()).toEqualTypeOf<Static<typeof bodySchema>>();
        expectTypeOf(ctx.query().status).toEqualTypeOf<"a" | "b" | undefined>();
        return ok();
      },
    });
    expect(route.requestBody).toBe(bodySchema);
    expect(route.query).toBe(querySchema);
    expect(route.ids).toEqual({ id: ITEM_ID });
  });

  it("takes the read or write scopes of the group's pair, and other scopes when named", () => {
    const read = v1({
      method: "GET",
      path: "/v1/r",
      operationId: "r",
      summary: "",
      access: "read",
      responses: {},
      handle: ok,
    });
    const write = v1({
      method: "POST",
      path: "/v1/w",
      operationId: "w",
      summary: "",
      access: "write",
      responses: {},
      handle: ok,
    });
    const admin = v1({
      method: "POST",
      path: "/v1/x",
      operationId: "x",
      summary: "",
      scopes: ["admin"],
      responses: {},
      handle: ok,
    });
    expect(read.scopes).toEqual(["things:read", "read"]);
    expect(write.scopes).toEqual(["things:write", "write"]);
    expect(admin.scopes).toEqual(["admin"]);
    expect(read).toMatchObject({ contract: "v1", tags: ["Things"], auth: true });
  });

  it("refuses a read or write route in a group without scopes (a route open to every token by mistake)", () => {
    const open = routeGroup({ contract: "v2", tags: ["Open"], auth: true });
    expect(() =>
      open({
        method: "GET",
        path: "/v2/o",
        operationId: "open",
        summary: "",
        access: "read",
        responses: {},
        handle: ok,
      }),
    ).toThrow(/open asks for read access in a group without scopes/);
  });

  it("lists the error answers its route can give, in the route's contract, unless the route writes its own", () => {
    const route = routeGroup({
      contract: "v2",
      tags: ["T"],
      auth: true,
      scopes: scopePair("t"),
      rateLimitBucket: "v2",
    })({
      method: "PATCH",
      path: "/v2/t/:id",
      operationId: "t",
      summary: "",
      access: "write",
      ids: { id: ITEM_ID },
      requestBody: bodySchema,
      responses: { "200": { description: "Changed" }, "400": { description: "Our own words" } },
      handle: ok,
    });
    expect(Object.keys(route.responses).sort()).toEqual(["200", "400", "403", "404", "429"]);
    expect(route.responses["400"]?.description).toBe("Our own words");
    expect(route.responses["403"]?.description).toContain("t:write, write");
    expect(route.responses["404"]?.description).toBe("PATIENT_NOT_FOUND");
    expect(route.responses["404"]?.schema).toEqual({ $ref: "#/components/schemas/V2Error" });
    const plain = routeGroup({ contract: "system", tags: ["S"], auth: false })({
      method: "GET",
      path: "/s",
      operationId: "s",
      summary: "",
      responses: { "200": { description: "Up" } },
      handle: ok,
    });
    expect(Object.keys(plain.responses)).toEqual(["200"]);
  });
});

describe("path ids", () => {
  it("reads a positive integer up to the stored-id bound", () => {
    expect(readPathId(ITEM_ID, "42")).toBe(42);
    expect(readPathId(ITEM_ID, String(MAX_STORED_ID))).toBe(MAX_STORED_ID);
    expect(() => readPathId(ITEM_ID, String(MAX_STORED_ID + 1))).toThrow("Patient not found");
  });

  it.each(["0", "-1", "abc", "1.5", "1e3", "", "99999999999999999"])(
    "answers the kind's not-found error naming the text sent for %j",
    (raw) => {
      const error = (() => {
        try {
          readPathId(ITEM_ID, raw);
        } catch (e) {
          return e;
        }
      })();
      expect(error).toBeInstanceOf(DomainError);
      expect(error).toMatchObject({
        code: "PATIENT_NOT_FOUND",
        message: "Patient not found",
        details: { patient_id: raw },
      });
    },
  );

  it("uses the kind's own parser (case ids accept SERVICE_CASE_<id>)", () => {
    const caseId = pathIdKind("CASE_NOT_FOUND", "service_case_id", (raw) =>
      /^SERVICE_CASE_\d+$/.test(raw) ? Number(raw.slice(13)) : undefined,
    );
    expect(readPathId(caseId, "SERVICE_CASE_7")).toBe(7);
    expect(() => readPathId(caseId, "7x")).toThrow("Case not found");
  });
});

// The erased context the handler table builds is what a typed handler receives.
expectTypeOf<RouteContext>().toHaveProperty("principal").toEqualTypeOf<Principal>();
