import type { AuditEntry, Principal } from "@openpractice/core";
import type { RouteContext, RouteDefinition } from "./route.js";

/** "api-clients" → "api_client", "staff" → "staff", "soap-notes" → "soap_note". */
const singular = (segment: string) =>
  segment
    .replace(/-/g, "_")
    .replace(/([^s])s$/, "$1")
    .replace(/ie$/, "y") || "resource";

/**
 * The kind of record a route acts on, read from its path: the segment before its last path parameter, else its
 * last segment (POST /v2/staff → staff; PATCH /v2/api-clients/:api_client_id → api_client).
 */
export function resourceTypeOf(route: Pick<RouteDefinition, "path" | "auditResource">): string {
  if (route.auditResource) return route.auditResource;
  const segments = route.path.split("/").filter(Boolean);
  const lastParam = segments.map((s) => s.startsWith(":")).lastIndexOf(true);
  const named = lastParam > 0 ? segments[lastParam - 1] : segments.at(-1);
  return singular((named ?? "resource").replace(/^:/, ""));
}

/** The value of the route's last path parameter (the record it names), or null. */
export function resourceIdOf(route: RouteDefinition, ctx: RouteContext): string | null {
  const names = route.path
    .split("/")
    .filter((s) => s.startsWith(":"))
    .map((s) => s.slice(1));
  const last = names.at(-1);
  if (last === undefined) return null;
  const parsed = (ctx.ids as Record<string, number | undefined>)[last];
  return parsed !== undefined ? String(parsed) : (ctx.params[last] ?? null);
}

/**
 * The audit entry of a request: who (user, name, client), which operation on which record, and, once the body is
 * read, the names of the fields it sent (never their values).
 */
export function auditEntryOf(
  route: RouteDefinition,
  ctx: RouteContext,
  principal: Principal,
  action = route.operationId,
): AuditEntry {
  return {
    actorUserId: principal.userId,
    actorName: principal.name,
    clientId: principal.clientId ?? null,
    action,
    resourceType: resourceTypeOf(route),
    resourceId: route.auditNamesCreated ? null : resourceIdOf(route, ctx),
    requestId: ctx.requestId,
    changedFields: [],
  };
}

/** Sets the entry's changed fields from a JSON body: its top-level keys, sorted. */
export function noteChangedFields(entry: AuditEntry, body: unknown): void {
  if (body !== null && typeof body === "object" && !Array.isArray(body))
    entry.changedFields.splice(0, entry.changedFields.length, ...Object.keys(body).sort());
}
