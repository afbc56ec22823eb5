import { CLINIC_LIMITS, CLINIC_SORT_FIELDS, type Clinic, type ClinicChanges } from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { pathIdKind } from "../contracts/path-id.js";
import { v2FieldsParameter, v2PageParameters } from "../contracts/v2-contract.js";
import { routeGroup, scopePair, type Static } from "../define-route.js";
import { resourceRoutes } from "../resource-routes.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  boolean,
  dateTime,
  described,
  fieldSelection,
  idText,
  replyObject,
  plainText,
  textOrNull,
} from "../openapi/reply-schemas.js";
import { nullable } from "../validation/json-schema.js";

export const CLINIC_ID = pathIdKind("CLINIC_NOT_FOUND", "clinic_id");
const text = (max: number) => nullable({ type: "string", maxLength: max });

const addressSchema = nullable({
  type: "object",
  additionalProperties: false,
  properties: {
    street: text(CLINIC_LIMITS.addressLineMax),
    street2: text(CLINIC_LIMITS.addressLineMax),
    city: text(CLINIC_LIMITS.cityMax),
    state: nullable({ type: "string", pattern: "^[A-Z]{2}$", description: "a 2-letter upper-case state code" }),
    zip_code: nullable({
      type: "string",
      pattern: "^[A-Za-z0-9 -]{3,10}$",
      description: "3 to 10 letters, digits, spaces or dashes",
    }),
    country: nullable({ type: "string", pattern: "^[A-Z]{2}$", description: "an ISO 3166-1 alpha-2 code" }),
  },
});

const clinicProperties = {
  name: { type: "string", minLength: 1, maxLength: CLINIC_LIMITS.nameMax },
  time_zone: { type: "string", minLength: 1, maxLength: 64, description: "IANA time zone, e.g. America/Chicago" },
  address: addressSchema,
  phone: text(CLINIC_LIMITS.phoneMax),
  place_of_service: {
    type: "string",
    pattern: "^[0-9]{2}$",
    description: "CMS place-of-service code claims carry (default 11, office)",
  },
  npi: nullable({ type: "string", pattern: "^[0-9]{10}$", description: "10 digits with a valid check digit" }),
  tax_id: nullable({ type: "string", pattern: "^[0-9]{2}-?[0-9]{7}$", description: "an EIN, 12-3456789" }),
  allow_double_booking: { type: "boolean" },
  visit_limit_warning_only: { type: "boolean" },
} as const;

const v2ClinicCreateSchema = {
  $id: "V2ClinicCreate",
  type: "object",
  additionalProperties: false,
  required: ["name", "time_zone"],
  properties: clinicProperties,
} as const;

const v2ClinicUpdateSchema = {
  $id: "V2ClinicUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: { ...clinicProperties, active: { type: "boolean", description: "false deactivates, true reactivates" } },
} as const;

const fieldsSchema = v2FieldsParameter([
  "id",
  "name",
  "time_zone",
  "address",
  "phone",
  "place_of_service",
  "npi",
  "tax_id",
  "allow_double_booking",
  "visit_limit_warning_only",
  "active",
  "created_at",
  "updated_at",
] as const);

const v2ClinicListQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...v2PageParameters(CLINIC_LIMITS.defaultPerPage, CLINIC_LIMITS.maxPerPage),
    search: {
      type: "string",
      maxLength: CLINIC_LIMITS.maxSearchLength,
      description: "Words that must all occur in the name or city (case- and accent-insensitive)",
    },
    status: { type: "string", enum: ["active", "inactive", "all"], default: "active" },
    sort: { type: "string", enum: [...CLINIC_SORT_FIELDS], default: "name" },
    order: { type: "string", enum: ["asc", "desc"], default: "asc" },
    fields: fieldsSchema,
  },
} as const;

/** A clinic as v2 shows it (v2ClinicView, docs/clinics.md). */
const v2ClinicSchema = replyObject(
  {
    id: idText,
    name: plainText,
    time_zone: described(plainText, "IANA time zone"),
    address: replyObject(
      {
        street: textOrNull,
        street2: textOrNull,
        city: textOrNull,
        state: textOrNull,
        zip_code: textOrNull,
        country: textOrNull,
      },
      { title: "ClinicAddress" },
    ),
    phone: textOrNull,
    place_of_service: described(plainText, "CMS place-of-service code, two digits"),
    npi: textOrNull,
    tax_id: described(textOrNull, "EIN as 12-3456789"),
    allow_double_booking: boolean,
    visit_limit_warning_only: boolean,
    active: boolean,
    created_at: dateTime,
    updated_at: dateTime,
  },
  {
    title: "Clinic",
    examples: [
      {
        id: "3",
        name: "Lakeview Physical Therapy",
        time_zone: "America/Chicago",
        address: {
          street: "3030 N Broadway",
          street2: "Suite 200",
          city: "Chicago",
          state: "IL",
          zip_code: "60657",
          country: "US",
        },
        phone: "+1-773-555-0110",
        place_of_service: "11",
        npi: "1234567893",
        tax_id: "36-1234567",
        allow_double_booking: false,
        visit_limit_warning_only: false,
        active: true,
        created_at: "2025-01-06T14:00:00.000Z",
        updated_at: "2025-02-11T09:30:00.000Z",
      },
    ],
  },
);
const v2ClinicFieldsSchema = fieldSelection(v2ClinicSchema, "ClinicFields");

const V2_CLINIC_FIELDS: FieldNames = Object.freeze({
  name: "name",
  timeZone: "time_zone",
  phone: "phone",
  placeOfService: "place_of_service",
  npi: "npi",
  taxId: "tax_id",
  "address.line1": "address.street",
  "address.line2": "address.street2",
  "address.city": "address.city",
  "address.state": "address.state",
  "address.postalCode": "address.zip_code",
  "address.country": "address.country",
});

type V2ClinicUpdate = Static<typeof v2ClinicUpdateSchema>;

export const v2ClinicView = (c: Clinic) => ({
  id: String(c.id),
  name: c.name,
  time_zone: c.timeZone,
  address: {
    street: c.address.line1,
    street2: c.address.line2,
    city: c.address.city,
    state: c.address.state,
    zip_code: c.address.postalCode,
    country: c.address.country,
  },
  phone: c.phone,
  place_of_service: c.placeOfService,
  npi: c.npi,
  tax_id: c.taxId === null ? null : `${c.taxId.slice(0, 2)}-${c.taxId.slice(2)}`,
  allow_double_booking: c.allowDoubleBooking,
  visit_limit_warning_only: c.visitLimitWarningOnly,
  active: c.active,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

function clinicChangesFromBody(b: V2ClinicUpdate): ClinicChanges {
  const a = b.address;
  return {
    name: b.name,
    timeZone: b.time_zone,
    address:
      a === undefined || a === null
        ? a
        : {
            line1: a.street,
            line2: a.street2,
            city: a.city,
            state: a.state,
            postalCode: a.zip_code,
            country: a.country,
          },
    phone: b.phone,
    placeOfService: b.place_of_service,
    npi: b.npi,
    taxId: b.tax_id,
    allowDoubleBooking: b.allow_double_booking,
    visitLimitWarningOnly: b.visit_limit_warning_only,
    active: b.active,
  };
}

/** Spec 4.7 `GET /v2/clinics`, and beyond it the clinic's own create, read and change. */
export function v2ClinicRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Clinics (v2 beta)"],
    auth: true,
    scopes: scopePair("clinics"),
    rateLimitBucket: "v2",
    fieldNames: V2_CLINIC_FIELDS,
  });
  const clinics = resourceRoutes(route, {
    path: "/v2/clinics",
    item: "/v2/clinics/:clinic_id",
    ids: { clinic_id: CLINIC_ID },
    view: v2ClinicView,
    reply: v2ClinicSchema,
    fields: { parameter: fieldsSchema, reply: v2ClinicFieldsSchema },
    conflict: "DUPLICATE_CLINIC: details.existing_clinic_id names the clinic with this name",
  });
  return [
    clinics.create({
      operationId: "v2CreateClinic",
      clinicRestriction: "so cannot add a clinic",
      summary: "Add a clinic (active). The name is unique in the organisation; the time zone is an IANA name.",
      description: "The new clinic",
      requestBody: v2ClinicCreateSchema,
      async handle(ctx) {
        const { active: _, ...changes } = clinicChangesFromBody(await ctx.body());
        return practice.clinics.create(ctx.principal, {
          ...changes,
          name: changes.name ?? "",
          timeZone: changes.timeZone ?? "",
        });
      },
    }),
    clinics.list({
      operationId: "v2ListClinics",
      summary: "The organisation's clinics (spec 4.7): active ones by name unless status, sort or order say otherwise.",
      description: "A page of clinics",
      query: v2ClinicListQuerySchema,
      async handle(ctx) {
        const q = ctx.query();
        const page = await practice.clinics.list(ctx.principal, {
          page: q.page,
          perPage: q.per_page,
          search: q.search,
          status: q.status,
          sort: q.sort,
          order: q.order,
        });
        return { ...page, rows: page.clinics };
      },
    }),
    clinics.get({
      operationId: "v2GetClinic",
      summary: "Read a clinic, active or not.",
      description: "The clinic",
      handle: (ctx) => practice.clinics.get(ctx.principal, ctx.ids.clinic_id),
    }),
    clinics.update({
      operationId: "v2UpdateClinic",
      summary:
        "Change a clinic: omitted fields keep their values, null clears an optional one, address fields merge; active false deactivates.",
      description: "The clinic after the change",
      requestBody: v2ClinicUpdateSchema,
      async handle(ctx) {
        return practice.clinics.update(ctx.principal, ctx.ids.clinic_id, clinicChangesFromBody(await ctx.body()));
      },
    }),
  ];
}
