import {
  API_CLIENT_LIMITS,
  API_CLIENT_STATUSES,
  CLIENT_JWKS_LIMITS,
  DomainError,
  REDIRECT_URI_LIMITS,
  type ApiClient,
  type PublicJwks,
} from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { optionalBody } from "../contracts/optional-body.js";
import { rotationBodySchema } from "../contracts/rotation-body.js";
import { jsonResponse } from "../contracts/json-response.js";
import { pathIdKind } from "../contracts/path-id.js";
import { V2_ID_INPUT, v2PageParameters } from "../contracts/v2-contract.js";
import { routeGroup } from "../define-route.js";
import { resourceRoutes } from "../resource-routes.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  anyObject,
  arrayOf,
  dateTime,
  dateTimeOrNull,
  described,
  idText,
  idTextOrNull,
  oneOfStrings,
  orNull,
  replyObject,
  plainText,
  textOrNull,
} from "../openapi/reply-schemas.js";
import { nullable } from "../validation/json-schema.js";

const API_CLIENT_ID = pathIdKind("API_CLIENT_NOT_FOUND", "api_client_id");
/** API clients are an administrator's business: a client able to make clients could grant itself anything. */
const ADMIN = ["admin"] as const;
const clinicId = V2_ID_INPUT;

const clientProperties = {
  name: {
    type: "string",
    minLength: 1,
    maxLength: API_CLIENT_LIMITS.nameMax,
    description: "Unique in the organisation, case-insensitively",
  },
  scopes: {
    type: "array",
    minItems: 1,
    maxItems: API_CLIENT_LIMITS.maxScopes,
    items: { type: "string", minLength: 1, maxLength: API_CLIENT_LIMITS.scopeMax },
    description: "The scopes its tokens may carry (docs/authentication.md lists them); platform:admin is never granted",
  },
  clinic_ids: {
    type: "array",
    maxItems: API_CLIENT_LIMITS.maxClinics,
    items: clinicId,
    description: "Restrict its tokens to these clinics (claim clinic_id_list); empty: no restriction",
  },
  user_id: nullable({
    type: ["string", "integer"],
    pattern: "^[1-9][0-9]{0,14}$",
    minimum: 1,
    description: "The user id its tokens carry (claim user_id), e.g. of the staff member the software acts for",
  }),
  redirect_uris: {
    type: "array",
    maxItems: REDIRECT_URI_LIMITS.maxRedirectUris,
    items: { type: "string", minLength: 1, maxLength: REDIRECT_URI_LIMITS.redirectUriMax },
    description:
      "Where single sign-on may send a launch code (docs/sso.md): exact URLs, https (http only on a loopback address), no fragment; empty: none",
  },
  jwks: nullable({
    type: "object",
    required: ["keys"],
    properties: {
      keys: {
        type: "array",
        minItems: 1,
        maxItems: CLIENT_JWKS_LIMITS.maxKeys,
        items: { type: "object", required: ["kty"], properties: { kty: { type: "string" } } },
      },
    },
    description:
      "SMART Backend Services: the public keys its client assertions are signed with (EC P-384 for ES384, RSA of 2048 bits or more for RS384), inline; null clears them. Setting it clears jwks_uri",
  }),
  jwks_uri: nullable({
    type: "string",
    minLength: 1,
    maxLength: CLIENT_JWKS_LIMITS.jwksUriMax,
    description:
      "SMART Backend Services: where the server fetches those keys (https; http only on a loopback address); null clears it. Setting it clears jwks",
  }),
} as const;

export const v2ApiClientCreateSchema = {
  $id: "V2ApiClientCreate",
  type: "object",
  additionalProperties: false,
  required: ["name", "scopes"],
  properties: clientProperties,
} as const;

export const v2ApiClientUpdateSchema = {
  $id: "V2ApiClientUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: clientProperties,
} as const;

const rotateSchema = rotationBodySchema(
  "V2ApiClientRotateSecret",
  API_CLIENT_LIMITS.maxGraceSeconds,
  "How long the current secret keeps working (default 86400: 24 hours; 0: stops at once)",
);

const listQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...v2PageParameters(API_CLIENT_LIMITS.defaultPerPage, API_CLIENT_LIMITS.maxPerPage),
    status: { type: "string", enum: [...API_CLIENT_STATUSES, "all"], default: "active" },
  },
} as const;

const CLIENT_PROPERTIES = {
  id: idText,
  client_id: described(plainText, "Sent to POST /oauth/token"),
  name: plainText,
  scopes: arrayOf(plainText),
  clinic_ids: arrayOf(idText),
  user_id: idTextOrNull,
  redirect_uris: described(arrayOf(plainText), "Single sign-on's registered redirect URIs (docs/sso.md)"),
  jwks: described(orNull(anyObject), "The public keys its client assertions are signed with, or null"),
  jwks_uri: described(textOrNull, "Where the server fetches its public keys, or null"),
  status: oneOfStrings(API_CLIENT_STATUSES),
  previous_secret_expires_at: described(dateTimeOrNull, "Until then the secret rotated out still works"),
  secret_rotated_at: dateTimeOrNull,
  last_token_at: dateTimeOrNull,
  created_at: dateTime,
  updated_at: dateTime,
  revoked_at: dateTimeOrNull,
} as const;
/** An API client as the API shows it (v2ApiClientView): never its secret. */
const clientSchema = replyObject(CLIENT_PROPERTIES, { title: "ApiClient" });
/** A client with its new secret: the answer of create and rotate-secret, shown once. */
export const apiClientWithSecretSchema = replyObject(
  {
    ...CLIENT_PROPERTIES,
    client_secret: described(plainText, "Shown this once; only its scrypt hash is kept"),
  },
  { title: "ApiClientWithSecret" },
);
const withSecret = apiClientWithSecretSchema;

const FIELDS: FieldNames = Object.freeze({
  name: "name",
  scopes: "scopes",
  clinicIds: "clinic_ids",
  userId: "user_id",
  redirectUris: "redirect_uris",
  jwks: "jwks",
  jwksUri: "jwks_uri",
  gracePeriodSeconds: "grace_period_seconds",
  status: "status",
});

/** The client as the API shows it: never a secret or its hash. */
export const v2ApiClientView = (c: ApiClient) => ({
  id: String(c.id),
  client_id: c.clientId,
  name: c.name,
  scopes: c.scopes,
  clinic_ids: c.clinicIds.map(String),
  user_id: c.userId === null ? null : String(c.userId),
  redirect_uris: c.redirectUris,
  jwks: c.jwks,
  jwks_uri: c.jwksUri,
  status: c.status,
  previous_secret_expires_at: c.previousSecretExpiresAt?.toISOString() ?? null,
  secret_rotated_at: c.secretRotatedAt?.toISOString() ?? null,
  last_token_at: c.lastTokenAt?.toISOString() ?? null,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
  revoked_at: c.revokedAt?.toISOString() ?? null,
});

const toId = (v: string | number | null | undefined) => (v === undefined ? undefined : v === null ? null : Number(v));

/** Unknown scopes are refused by name: a typo would otherwise make a client whose tokens open nothing. */
function unknownScopeIssues(scopes: readonly string[] | undefined, known: ReadonlySet<string>) {
  return (scopes ?? [])
    .map((scope, i) => ({ scope, i }))
    .filter(({ scope }) => !known.has(scope))
    .map(({ scope, i }) => ({
      field: `scopes.${i}`,
      reason: "is not a scope of this API (docs/authentication.md)",
      value: scope,
    }));
}

/** /v2/api-clients: credentials for software, managed by the organisation's administrators (scope admin). */
export function v2ApiClientRoutes({ practice, knownScopes }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["API clients (v2 beta)"],
    auth: true,
    rateLimitBucket: "v2",
    fieldNames: FIELDS,
  });
  const duplicate = "DUPLICATE_API_CLIENT: details.existing_api_client_id names the client with this name";
  const clients = resourceRoutes(route, {
    path: "/v2/api-clients",
    item: "/v2/api-clients/:api_client_id",
    ids: { api_client_id: API_CLIENT_ID },
    view: v2ApiClientView,
    reply: clientSchema,
    conflict: duplicate,
  });
  const assertKnownScopes = (scopes: readonly string[] | undefined) => {
    const issues = unknownScopeIssues(scopes, knownScopes());
    if (issues.length > 0) throw DomainError.validation(issues);
  };
  return [
    route({
      method: "POST",
      path: "/v2/api-clients",
      operationId: "v2CreateApiClient",
      clinicRestriction: "the new client would not be restricted to some of its own clinics",
      summary: "Create an API client; the answer carries its client_secret, shown this once.",
      scopes: ADMIN,
      requestBody: v2ApiClientCreateSchema,
      responses: {
        "201": { description: "The client and its secret (Location: its URL)", schema: withSecret },
        "409": { description: duplicate, schema: { $ref: "#/components/schemas/V2Error" } },
      },
      async handle(ctx) {
        const b = await ctx.body();
        assertKnownScopes(b.scopes);
        const { client, secret } = await practice.apiClients.create(ctx.principal, {
          name: b.name,
          scopes: b.scopes,
          clinicIds: b.clinic_ids?.map(Number),
          userId: toId(b.user_id),
          redirectUris: b.redirect_uris,
          jwks: b.jwks as PublicJwks | null | undefined,
          jwksUri: b.jwks_uri,
        });
        return jsonResponse(
          201,
          { ...v2ApiClientView(client), client_secret: secret },
          { location: `${ctx.basePath}/v2/api-clients/${client.id}`, "cache-control": "no-store" },
        );
      },
    }),
    clients.list({
      operationId: "v2ListApiClients",
      summary: "List the organisation's API clients by id: active ones unless status says otherwise.",
      description: "A page of clients",
      scopes: ADMIN,
      query: listQuery,
      async handle(ctx) {
        const q = ctx.query();
        const page = await practice.apiClients.list(ctx.principal, {
          page: q.page,
          perPage: q.per_page,
          status: q.status,
        });
        return { ...page, rows: page.clients };
      },
    }),
    clients.get({
      operationId: "v2GetApiClient",
      summary: "Read an API client (never its secret).",
      description: "The client",
      scopes: ADMIN,
      handle: (ctx) => practice.apiClients.get(ctx.principal, ctx.ids.api_client_id),
    }),
    clients.update({
      operationId: "v2UpdateApiClient",
      clinicRestriction: "the client, before or after the change, is not restricted to some of its own clinics",
      summary:
        "Change name, scopes, clinics or user id; omitted fields keep their values. Tokens already issued keep theirs until they expire.",
      description: "The client",
      scopes: ADMIN,
      requestBody: v2ApiClientUpdateSchema,
      async handle(ctx) {
        const b = await ctx.body();
        assertKnownScopes(b.scopes);
        return practice.apiClients.update(ctx.principal, ctx.ids.api_client_id, {
          name: b.name,
          scopes: b.scopes,
          clinicIds: b.clinic_ids?.map(Number),
          userId: toId(b.user_id),
          redirectUris: b.redirect_uris,
          jwks: b.jwks as PublicJwks | null | undefined,
          jwksUri: b.jwks_uri,
        });
      },
    }),
    clients.deactivate({
      operationId: "v2RevokeApiClient",
      clinicRestriction: "the client is not restricted to some of its own clinics",
      summary:
        "Revoke an API client: it obtains no more tokens (issued ones expire within their lifetime). The record stays.",
      description: "The revoked client",
      scopes: ADMIN,
      handle: (ctx) => practice.apiClients.revoke(ctx.principal, ctx.ids.api_client_id),
    }),
    route({
      method: "POST",
      path: "/v2/api-clients/:api_client_id/rotate-secret",
      ids: { api_client_id: API_CLIENT_ID },
      operationId: "v2RotateApiClientSecret",
      clinicRestriction: "the client is not restricted to some of its own clinics",
      summary:
        "A new client_secret (shown once); the current one keeps working for grace_period_seconds (default 24 hours).",
      scopes: ADMIN,
      requestBody: rotateSchema,
      responses: { "200": { description: "The client and its new secret", schema: withSecret } },
      async handle(ctx) {
        // The body is optional: a bare POST rotates with the default grace period.
        const b = await optionalBody(ctx);
        const { client, secret } = await practice.apiClients.rotateSecret(ctx.principal, ctx.ids.api_client_id, {
          gracePeriodSeconds: b.grace_period_seconds,
        });
        return jsonResponse(
          200,
          { ...v2ApiClientView(client), client_secret: secret },
          { "cache-control": "no-store" },
        );
      },
    }),
  ];
}
