import {
  STAFF_LIMITS,
  STAFF_ROLES,
  STAFF_SORT_FIELDS,
  STAFF_STATUSES,
  type StaffChanges,
  type StaffMember,
} from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { pathIdKind } from "../contracts/path-id.js";
import { V2_ID_INPUT, v2FieldsParameter, v2PageParameters } from "../contracts/v2-contract.js";
import { routeGroup, scopePair, type Static } from "../define-route.js";
import { resourceRoutes } from "../resource-routes.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  arrayOf,
  dateTime,
  dateTimeOrNull,
  fieldSelection,
  idText,
  oneOfStrings,
  replyObject,
  plainText,
  textOrNull,
} from "../openapi/reply-schemas.js";
import { nullable } from "../validation/json-schema.js";

const STAFF_ID = pathIdKind("STAFF_NOT_FOUND", "staff_id");
/** v2 ids are strings (spec 2.5); a clinic id is accepted as a number too. */
const clinicId = V2_ID_INPUT;
const name = { type: "string", minLength: 1, maxLength: STAFF_LIMITS.nameMax } as const;

const staffProperties = {
  first_name: name,
  last_name: name,
  email: { type: "string", format: "email", maxLength: STAFF_LIMITS.emailMax },
  phone: nullable({ type: "string", maxLength: STAFF_LIMITS.phoneMax }),
  roles: {
    type: "array",
    minItems: 1,
    maxItems: STAFF_LIMITS.maxRoles,
    items: { type: "string", enum: [...STAFF_ROLES] },
    description: "What they do at the practice; at least one",
  },
  clinic_ids: {
    type: "array",
    maxItems: STAFF_LIMITS.maxClinics,
    items: clinicId,
    description: "The clinics they work at (GET /v2/clinics); empty: none in particular",
  },
} as const;

export const v2StaffCreateSchema = {
  $id: "V2StaffCreate",
  type: "object",
  additionalProperties: false,
  required: ["first_name", "last_name", "email", "roles"],
  properties: staffProperties,
} as const;

export const v2StaffUpdateSchema = {
  $id: "V2StaffUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...staffProperties,
    status: {
      type: "string",
      enum: [...STAFF_STATUSES],
      description: "active reactivates a deactivated member; deactivation is DELETE",
    },
  },
} as const;

const v2StaffListQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...v2PageParameters(STAFF_LIMITS.defaultPerPage, STAFF_LIMITS.maxPerPage),
    search: {
      type: "string",
      maxLength: STAFF_LIMITS.maxSearchLength,
      description: "Words that must all occur in the name or email (case- and accent-insensitive)",
    },
    status: { type: "string", enum: [...STAFF_STATUSES, "all"], default: "active" },
    role: { type: "string", enum: [...STAFF_ROLES] },
    clinic_id: { type: "integer", minimum: 1, description: "Members who work at this clinic" },
    sort: { type: "string", enum: [...STAFF_SORT_FIELDS], default: "last_name" },
    order: { type: "string", enum: ["asc", "desc"], default: "asc" },
    fields: v2FieldsParameter([
      "id",
      "first_name",
      "last_name",
      "email",
      "phone",
      "roles",
      "clinic_ids",
      "status",
      "created_at",
      "updated_at",
      "deactivated_at",
    ] as const),
  },
} as const;
/** A staff member as v2 shows them (v2StaffView). */
const v2StaffSchema = replyObject(
  {
    id: idText,
    first_name: plainText,
    last_name: plainText,
    email: plainText,
    phone: textOrNull,
    roles: arrayOf(oneOfStrings(STAFF_ROLES)),
    clinic_ids: arrayOf(idText, "The clinics they work at; empty: none in particular"),
    status: oneOfStrings(STAFF_STATUSES),
    created_at: dateTime,
    updated_at: dateTime,
    deactivated_at: dateTimeOrNull,
  },
  {
    title: "Staff",
    examples: [
      {
        id: "15",
        first_name: "Dana",
        last_name: "Whitfield",
        email: "dana.whitfield@lakeviewpt.example",
        phone: "+1-773-555-0123",
        roles: ["front_desk", "scheduler"],
        clinic_ids: ["3"],
        status: "active",
        created_at: "2025-02-03T16:45:00.000Z",
        updated_at: "2025-02-03T16:45:00.000Z",
        deactivated_at: null,
      },
    ],
  },
);
const v2StaffFieldsSchema = fieldSelection(v2StaffSchema, "StaffFields");

/** Domain field → v2 wire field, for error messages. */
const V2_STAFF_FIELDS: FieldNames = Object.freeze({
  firstName: "first_name",
  lastName: "last_name",
  email: "email",
  phone: "phone",
  roles: "roles",
  clinicIds: "clinic_ids",
  status: "status",
});

type V2StaffUpdate = Static<typeof v2StaffUpdateSchema>;

const v2StaffView = (m: StaffMember) => ({
  id: String(m.id),
  first_name: m.firstName,
  last_name: m.lastName,
  email: m.email,
  phone: m.phone,
  roles: m.roles,
  clinic_ids: m.clinicIds.map(String),
  status: m.status,
  created_at: m.createdAt.toISOString(),
  updated_at: m.updatedAt.toISOString(),
  deactivated_at: m.deactivatedAt?.toISOString() ?? null,
});

function staffChangesFromBody(b: V2StaffUpdate): StaffChanges {
  return {
    firstName: b.first_name,
    lastName: b.last_name,
    email: b.email,
    phone: b.phone,
    roles: b.roles,
    clinicIds: b.clinic_ids?.map(Number),
    status: b.status,
  };
}

/** Spec 4.7 /v2/staff: people of the practice who do not treat patients. DELETE deactivates; the record stays. */
export function v2StaffRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Staff (v2 beta)"],
    auth: true,
    scopes: scopePair("staff"),
    rateLimitBucket: "v2",
    fieldNames: V2_STAFF_FIELDS,
  });
  const staff = resourceRoutes(route, {
    path: "/v2/staff",
    item: "/v2/staff/:staff_id",
    ids: { staff_id: STAFF_ID },
    view: v2StaffView,
    reply: v2StaffSchema,
    fields: { parameter: v2StaffListQuerySchema.properties.fields, reply: v2StaffFieldsSchema },
    conflict: "DUPLICATE_STAFF_EMAIL: details.existing_staff_id names the member with this email",
  });
  return [
    staff.create({
      operationId: "v2CreateStaff",
      clinicRestriction: "the new member would not be restricted to some of its own clinics",
      summary: "Add a staff member (status active). The email is unique in the organisation, case-insensitively.",
      description: "The new member (Location: its URL)",
      requestBody: v2StaffCreateSchema,
      async handle(ctx) {
        const b = await ctx.body();
        const { status: _, ...changes } = staffChangesFromBody(b);
        return practice.staff.create(ctx.principal, {
          ...changes,
          firstName: b.first_name,
          lastName: b.last_name,
          email: b.email,
          roles: b.roles,
        });
      },
    }),
    staff.list({
      operationId: "v2ListStaff",
      summary:
        "List staff, paginated: active ones by last name unless status, sort or order say otherwise; search, role and clinic_id narrow it.",
      description: "A page of staff",
      query: v2StaffListQuerySchema,
      async handle(ctx) {
        const q = ctx.query();
        const page = await practice.staff.list(ctx.principal, {
          page: q.page,
          perPage: q.per_page,
          search: q.search,
          status: q.status,
          role: q.role,
          clinicId: q.clinic_id,
          sort: q.sort,
          order: q.order,
        });
        return { ...page, rows: page.members };
      },
    }),
    staff.get({
      operationId: "v2GetStaff",
      summary: "Read a staff member, active or not.",
      description: "The member",
      handle: (ctx) => practice.staff.get(ctx.principal, ctx.ids.staff_id),
    }),
    staff.update({
      operationId: "v2UpdateStaff",
      clinicRestriction: "the member, before or after the change, is not restricted to some of its own clinics",
      summary:
        "Change a staff member: omitted fields keep their values, roles and clinic_ids given replace the list; status active reactivates.",
      description: "The member after the change",
      requestBody: v2StaffUpdateSchema,
      async handle(ctx) {
        return practice.staff.update(ctx.principal, ctx.ids.staff_id, staffChangesFromBody(await ctx.body()));
      },
    }),
    staff.deactivate({
      operationId: "v2DeactivateStaff",
      clinicRestriction: "the member is not restricted to some of its own clinics",
      summary:
        "Deactivate a staff member: status inactive, deactivated_at set; the record, its email and history stay. Repeating it changes nothing.",
      description: "The deactivated member",
      handle: (ctx) => practice.staff.deactivate(ctx.principal, ctx.ids.staff_id),
    }),
  ];
}
