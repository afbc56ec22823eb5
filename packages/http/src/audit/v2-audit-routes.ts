import { AUDIT_LIMITS, type AuditEvent } from "@openpractice/core";
import { jsonResponse } from "../contracts/json-response.js";
import { v2ListBody, v2ListSchema, v2PageParameters } from "../contracts/v2-contract.js";
import { routeGroup } from "../define-route.js";
import {
  arrayOf,
  dateTime,
  described,
  idText,
  idTextOrNull,
  replyObject,
  plainText,
  textOrNull,
} from "../openapi/reply-schemas.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";

const idFilter = { type: "string", minLength: 1, maxLength: 64 } as const;

const listQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    ...v2PageParameters(AUDIT_LIMITS.defaultPerPage, AUDIT_LIMITS.maxPerPage),
    actor_user_id: { type: "integer", minimum: 1, description: "Entries of this user id (claim user_id)" },
    client_id: {
      type: "string",
      minLength: 1,
      maxLength: 40,
      description: "Entries made with this API client's tokens",
    },
    resource_type: { type: "string", minLength: 1, maxLength: 50, description: "e.g. patient, staff, api_client" },
    resource_id: idFilter,
    action: { type: "string", minLength: 1, maxLength: 100, description: "The operation id, e.g. v2CreateStaff" },
    from: { type: "string", format: "date-time", description: "Entries at or after this time" },
    to: { type: "string", format: "date-time", description: "Entries before this time" },
  },
} as const;

/** An audit trail entry (view). */
const eventSchema = replyObject(
  {
    id: idText,
    occurred_at: dateTime,
    actor: replyObject(
      {
        user_id: described(idTextOrNull, "The token's user_id claim"),
        name: textOrNull,
        client_id: described(textOrNull, "The API client whose token was used"),
      },
      { title: "AuditActor" },
    ),
    action: described(plainText, "The operation id (read:<operation id> for reads), oauthToken or cli.org.*"),
    resource_type: plainText,
    resource_id: textOrNull,
    request_id: textOrNull,
    changed_fields: arrayOf(plainText, "Names only; never values"),
  },
  { title: "AuditEvent" },
);

const view = (e: AuditEvent) => ({
  id: String(e.id),
  occurred_at: e.occurredAt.toISOString(),
  actor: {
    user_id: e.actorUserId === null ? null : String(e.actorUserId),
    name: e.actorName,
    client_id: e.clientId,
  },
  action: e.action,
  resource_type: e.resourceType,
  resource_id: e.resourceId,
  request_id: e.requestId,
  changed_fields: e.changedFields,
});

/** GET /v2/audit-events: the organisation's audit trail, newest first (scope admin). No route changes or deletes it. */
export function v2AuditRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({ contract: "v2", tags: ["Audit trail (v2 beta)"], auth: true, rateLimitBucket: "v2" });
  return [
    route({
      method: "GET",
      path: "/v2/audit-events",
      readsOnly: true,
      operationId: "v2ListAuditEvents",
      clinicRestriction: "so cannot read the audit trail, which spans every clinic",
      summary:
        "The audit trail, newest first: who changed (or, with audit_reads, read) which record, filtered by actor, client, resource, action and time.",
      scopes: ["admin"],
      query: listQuery,
      responses: { "200": { description: "A page of audit events", schema: v2ListSchema(eventSchema) } },
      async handle(ctx) {
        const q = ctx.query();
        const page = await practice.audit.listFor(ctx.principal, {
          page: q.page,
          perPage: q.per_page,
          actorUserId: q.actor_user_id,
          clientId: q.client_id,
          resourceType: q.resource_type,
          resourceId: q.resource_id,
          action: q.action,
          from: q.from ? new Date(q.from) : undefined,
          to: q.to ? new Date(q.to) : undefined,
        });
        return jsonResponse(200, v2ListBody(ctx, page, page.events.map(view), undefined));
      },
    }),
  ];
}
