import { webhookError } from "./webhook-errors.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import type { EventCatalogue } from "../kernel/event-catalogue.js";
import { checkOutboundUrl } from "../kernel/outbound-url.js";
import { SIGNATURE_FORMATS, WEBHOOK_API_VERSIONS, type SubscriptionChanges } from "./webhook-subscription.js";

export const WEBHOOK_LIMITS = Object.freeze({ nameMax: 200, urlMax: 2048 });

/** The event types of a subscription: at least one, each one the practice's catalogue has, none twice. */
export function checkEventTypes(
  issues: ValidationIssue[],
  eventTypes: unknown,
  catalogue: Pick<EventCatalogue, "has">,
): void {
  if (!Array.isArray(eventTypes) || eventTypes.length === 0) {
    issues.push({ field: "eventTypes", reason: "must list at least one event type" });
    return;
  }
  const unknown = eventTypes.filter((t) => !catalogue.has(t));
  if (unknown.length)
    issues.push({
      field: "eventTypes",
      reason: `contains unknown event types: ${unknown.join(", ")} (GET /apis/v1/webhooks/event-types lists them)`,
      value: unknown,
    });
  const dupes = eventTypes.filter((t, i) => eventTypes.indexOf(t) !== i);
  if (dupes.length)
    issues.push({
      field: "eventTypes",
      reason: `lists ${[...new Set(dupes)].join(", ")} more than once`,
      value: [...new Set(dupes)],
    });
}

/**
 * Spec 7.2: a non-empty name, known event types without duplicates, a valid
 * URL (https outside development), a known api_version (INVALID_API_VERSION).
 */
export function assertValidSubscription(
  input: SubscriptionChanges,
  creating: boolean,
  env: { allowHttp: boolean; httpSetting: string; events: Pick<EventCatalogue, "has"> },
): void {
  if (input.apiVersion !== undefined && !(WEBHOOK_API_VERSIONS as readonly string[]).includes(input.apiVersion)) {
    throw webhookError(
      "INVALID_API_VERSION",
      `Unknown api_version '${input.apiVersion}' (supported: ${WEBHOOK_API_VERSIONS.join(", ")})`,
      {
        api_version: input.apiVersion,
        supported_versions: [...WEBHOOK_API_VERSIONS],
      },
    );
  }
  const issues: ValidationIssue[] = [];
  if (input.signatureFormat !== undefined && !(SIGNATURE_FORMATS as readonly string[]).includes(input.signatureFormat))
    issues.push({
      field: "signatureFormat",
      reason: `must be one of ${SIGNATURE_FORMATS.join(", ")}`,
      value: input.signatureFormat,
    });
  if (
    (creating || input.name !== undefined) &&
    (typeof input.name !== "string" || input.name.trim() === "" || input.name.length > WEBHOOK_LIMITS.nameMax)
  ) {
    issues.push({ field: "name", reason: `must be 1 to ${WEBHOOK_LIMITS.nameMax} characters` });
  }
  if (creating || input.eventTypes !== undefined) checkEventTypes(issues, input.eventTypes, env.events);
  if (creating || input.notificationUrl !== undefined)
    checkOutboundUrl(issues, "notificationUrl", input.notificationUrl, {
      allowHttp: env.allowHttp,
      httpSetting: env.httpSetting,
      max: WEBHOOK_LIMITS.urlMax,
      what: "a valid URL",
    });
  if (issues.length) throw DomainError.validation(issues);
}
