import { PROVIDER_LIMITS, PROVIDER_SORT_FIELDS, type Provider, type ProviderChanges } from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { pathIdKind } from "../contracts/path-id.js";
import { V2_ID_INPUT, v2FieldsParameter, v2PageParameters } from "../contracts/v2-contract.js";
import { routeGroup, scopePair, type Static } from "../define-route.js";
import { resourceRoutes } from "../resource-routes.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  arrayOf,
  boolean,
  dateTime,
  described,
  fieldSelection,
  idText,
  idTextOrNull,
  replyObject,
  plainText,
  textOrNull,
} from "../openapi/reply-schemas.js";
import { nullable } from "../validation/json-schema.js";

const PROVIDER_ID = pathIdKind("PROVIDER_NOT_FOUND", "provider_id");
const idRef = V2_ID_INPUT;
const name = { type: "string", minLength: 1, maxLength: PROVIDER_LIMITS.nameMax } as const;

const providerProperties = {
  first_name: name,
  last_name: name,
  npi: nullable({
    type: "string",
    pattern: "^[0-9]{10}$",
    description: "10 digits with a valid check digit; unique in the organisation",
  }),
  credentials: {
    type: "array",
    maxItems: PROVIDER_LIMITS.maxCredentials,
    items: { type: "string", pattern: "^[A-Z][A-Z0-9-]{0,11}$" },
    description: "e.g. DPT, PTA, DC, OTR, CCC-SLP",
  },
  licence_number: nullable({ type: "string", minLength: 1, maxLength: PROVIDER_LIMITS.licenceMax }),
  licence_state: nullable({ type: "string", pattern: "^[A-Z]{2}$", description: "the issuing state, 2 letters" }),
  specialities: {
    type: "array",
    maxItems: PROVIDER_LIMITS.maxSpecialities,
    items: { type: "string", minLength: 1, maxLength: 30 },
  },
  clinic_ids: {
    type: "array",
    maxItems: PROVIDER_LIMITS.maxClinics,
    items: idRef,
    description: "Where they work (GET /v2/clinics)",
  },
  supervising_user_id: nullable({ ...idRef, description: "The user id of the provider who co-signs their notes" }),
  requires_cosign: {
    type: "boolean",
    description: "Their notes need the supervisor's co-signature whatever the organisation's setting (default false)",
  },
} as const;

const v2ProviderCreateSchema = {
  $id: "V2ProviderCreate",
  type: "object",
  additionalProperties: false,
  required: ["user_id", "first_name", "last_name"],
  properties: {
    user_id: {
      ...idRef,
      description: "Their user id in your identity provider: the user_id claim of their tokens, v1's doctor_id",
    },
    ...providerProperties,
  },
} as const;

const v2ProviderUpdateSchema = {
  $id: "V2ProviderUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    ...providerProperties,
    active: { type: "boolean", description: "false deactivates: they cannot be booked" },
  },
} as const;

const fieldsSchema = v2FieldsParameter([
  "id",
  "user_id",
  "first_name",
  "last_name",
  "npi",
  "credentials",
  "licence_number",
  "licence_state",
  "specialities",
  "clinic_ids",
  "supervising_user_id",
  "requires_cosign",
  "active",
  "created_at",
  "updated_at",
] as const);

const v2ProviderListQuerySchema = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...v2PageParameters(PROVIDER_LIMITS.defaultPerPage, PROVIDER_LIMITS.maxPerPage),
    search: {
      type: "string",
      maxLength: PROVIDER_LIMITS.maxSearchLength,
      description: "Words that must all occur in the name, NPI or credentials (case- and accent-insensitive)",
    },
    status: { type: "string", enum: ["active", "inactive", "all"], default: "active" },
    clinic_id: { type: "integer", minimum: 1, description: "Providers who work at this clinic" },
    sort: { type: "string", enum: [...PROVIDER_SORT_FIELDS], default: "last_name" },
    order: { type: "string", enum: ["asc", "desc"], default: "asc" },
    fields: fieldsSchema,
  },
} as const;

/** A provider as v2 shows it (v2ProviderView, docs/providers.md). */
export const v2ProviderSchema = replyObject(
  {
    id: idText,
    user_id: described(idText, "Their user id in your identity provider: v1's doctor_id"),
    first_name: plainText,
    last_name: plainText,
    npi: textOrNull,
    credentials: arrayOf(plainText),
    licence_number: textOrNull,
    licence_state: textOrNull,
    specialities: arrayOf(plainText),
    clinic_ids: arrayOf(idText),
    supervising_user_id: described(idTextOrNull, "The user id of the provider who co-signs their notes"),
    requires_cosign: boolean,
    active: boolean,
    created_at: dateTime,
    updated_at: dateTime,
  },
  {
    title: "Provider",
    examples: [
      {
        id: "7",
        user_id: "9001",
        first_name: "Priya",
        last_name: "Raman",
        npi: "1234567893",
        credentials: ["DPT"],
        licence_number: "070-012345",
        licence_state: "IL",
        specialities: ["PT"],
        clinic_ids: ["3", "4"],
        supervising_user_id: null,
        requires_cosign: false,
        active: true,
        created_at: "2025-01-06T14:05:00.000Z",
        updated_at: "2025-01-06T14:05:00.000Z",
      },
    ],
  },
);
const v2ProviderFieldsSchema = fieldSelection(v2ProviderSchema, "ProviderFields");

const V2_PROVIDER_FIELDS: FieldNames = Object.freeze({
  userId: "user_id",
  firstName: "first_name",
  lastName: "last_name",
  npi: "npi",
  credentials: "credentials",
  licenceNumber: "licence_number",
  licenceState: "licence_state",
  specialities: "specialities",
  clinicIds: "clinic_ids",
  supervisingUserId: "supervising_user_id",
  requiresCosign: "requires_cosign",
});

type V2ProviderUpdate = Static<typeof v2ProviderUpdateSchema>;

export const v2ProviderView = (p: Provider) => ({
  id: String(p.id),
  user_id: String(p.userId),
  first_name: p.firstName,
  last_name: p.lastName,
  npi: p.npi,
  credentials: p.credentials,
  licence_number: p.licenceNumber,
  licence_state: p.licenceState,
  specialities: p.specialities,
  clinic_ids: p.clinicIds.map(String),
  supervising_user_id: p.supervisingUserId === null ? null : String(p.supervisingUserId),
  requires_cosign: p.requiresCosign,
  active: p.active,
  created_at: p.createdAt.toISOString(),
  updated_at: p.updatedAt.toISOString(),
});

const num = (v: string | number | null | undefined) => (v === undefined || v === null ? v : Number(v));

function providerChangesFromBody(b: V2ProviderUpdate): ProviderChanges {
  return {
    firstName: b.first_name,
    lastName: b.last_name,
    npi: b.npi,
    credentials: b.credentials,
    licenceNumber: b.licence_number,
    licenceState: b.licence_state,
    specialities: b.specialities,
    clinicIds: b.clinic_ids?.map(Number),
    supervisingUserId: num(b.supervising_user_id),
    requiresCosign: b.requires_cosign,
    active: b.active,
  };
}

/** Spec 4.7 providers: POST, GET /v2/providers; GET, PATCH /v2/providers/{provider_id}. */
export function v2ProviderRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Providers (v2 beta)"],
    auth: true,
    scopes: scopePair("providers"),
    rateLimitBucket: "v2",
    fieldNames: V2_PROVIDER_FIELDS,
  });
  const providers = resourceRoutes(route, {
    path: "/v2/providers",
    item: "/v2/providers/:provider_id",
    ids: { provider_id: PROVIDER_ID },
    view: v2ProviderView,
    reply: v2ProviderSchema,
    fields: { parameter: fieldsSchema, reply: v2ProviderFieldsSchema },
    conflict: "DUPLICATE_PROVIDER: details.existing_provider_id holds the NPI or user id (details.field)",
  });
  return [
    providers.create({
      operationId: "v2CreateProvider",
      clinicRestriction: "the new provider would not be restricted to some of its own clinics",
      summary:
        "Add a provider (active). NPI and user id are unique in the organisation; clinics and supervisor must exist.",
      description: "The new provider",
      requestBody: v2ProviderCreateSchema,
      async handle(ctx) {
        const b = await ctx.body();
        const { active: _, ...changes } = providerChangesFromBody(b);
        return practice.providers.create(ctx.principal, {
          ...changes,
          userId: Number(b.user_id),
          firstName: b.first_name,
          lastName: b.last_name,
        });
      },
    }),
    providers.list({
      operationId: "v2ListProviders",
      summary: "The organisation's providers: active ones by last name unless status, sort or order say otherwise.",
      description: "A page of providers",
      query: v2ProviderListQuerySchema,
      async handle(ctx) {
        const q = ctx.query();
        const page = await practice.providers.list(ctx.principal, {
          page: q.page,
          perPage: q.per_page,
          search: q.search,
          status: q.status,
          clinicId: q.clinic_id,
          sort: q.sort,
          order: q.order,
        });
        return { ...page, rows: page.providers };
      },
    }),
    providers.get({
      operationId: "v2GetProvider",
      summary: "Read a provider, active or not.",
      description: "The provider",
      handle: (ctx) => practice.providers.get(ctx.principal, ctx.ids.provider_id),
    }),
    providers.update({
      operationId: "v2UpdateProvider",
      clinicRestriction: "the provider, before or after the change, is not restricted to some of its own clinics",
      summary:
        "Change a provider: omitted fields keep their values, null clears an optional one, lists given replace the list; active false deactivates. The user id does not change.",
      description: "The provider after the change",
      requestBody: v2ProviderUpdateSchema,
      async handle(ctx) {
        const changes = providerChangesFromBody(await ctx.body());
        return practice.providers.update(ctx.principal, ctx.ids.provider_id, changes);
      },
    }),
  ];
}
