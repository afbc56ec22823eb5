import { sample } from "openapi-sampler";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { FakePushService } from "../support/push-service.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";
import { WebhookReceiver } from "../support/webhook-receiver.js";

type Json = any;

/** An id no seeded or created record has (within MAX_STORED_ID, so it reaches the service, not the id parser). */
const UNKNOWN_ID = "2147480000";

/** The audited operations: every authenticated write whose path names a record, read from the OpenAPI document. */
function auditedWritesWithPathIds(doc: Json) {
  const operations: { method: string; template: string; op: Json }[] = [];
  for (const [template, item] of Object.entries<Json>(doc.paths))
    for (const [method, op] of Object.entries<Json>(item))
      if (["post", "patch", "put", "delete"].includes(method) && template.includes("{") && op.security?.length)
        operations.push({ method: method.toUpperCase(), template, op });
  return operations;
}

/** Fields a schema sample cannot get right (rules across fields, id patterns, known names), by operation. */
const FIELDS_BEYOND_SCHEMAS: Record<string, Json> = {
  "POST /apis/v1/appointment/{appointment_id}/reschedule": { timestamp: 1956528000, end_timestamp: 1956531600 },
  "POST /apis/v1/webhooks/subscriptions/{id}/subscribe": { event_types: ["patient.created"] },
  "POST /apis/v1/webhooks/subscriptions/{id}/unsubscribe": { event_types: ["patient.created"] },
  "POST /v2/providers/{provider_id}/schedules": { clinic_id: "1", start_time: "09:00", end_time: "17:00" },
  "POST /v2/providers/{provider_id}/blocks": { start: "2031-01-06T09:00:00Z", end: "2031-01-06T10:00:00Z" },
  "POST /v2/patients/{patient_id}/coverages": { payer_ref: "1" },
};

/**
 * Bodies to try, smallest first, until one passes validation and reaches the service: the required fields alone,
 * then with each optional field in turn (a PATCH needs one). Values are the schema's examples, enums and patterns.
 */
function bodiesFor(doc: Json, op: Json, name: string): unknown[] {
  const schema = op.requestBody?.content?.["application/json"]?.schema;
  if (!schema) return [undefined];
  const options = { skipReadOnly: true, enablePatterns: true, quiet: true };
  const sampled = sample(schema, { ...options, skipNonRequired: true }, doc) as Json;
  const required = FIELDS_BEYOND_SCHEMAS[name] ? { ...sampled, ...FIELDS_BEYOND_SCHEMAS[name] } : sampled;
  const full = sample(schema, { ...options, skipNonRequired: false }, doc) as Json;
  if (!required || typeof required !== "object" || Array.isArray(required)) return [required];
  return [
    required,
    ...Object.keys(full)
      .filter((k) => !(k in required))
      .map((k) => ({ ...required, [k]: full[k] })),
  ];
}

/** The error code of a v1 or v2 reply (v1 may answer its errors with 200, spec 7.1), or null for a success. */
/** The stable error code of a v2 error, a v1 envelope, or a FHIR OperationOutcome (its first issue's details.text). */
function errorCodeOf(body: Json): string | null {
  return body?.error?.code ?? body?.error_code ?? body?.issue?.[0]?.details?.text ?? null;
}

/**
 * Spec 5.2 and docs/audit-trail.md: a refused write records nothing. Every audited operation whose path names a
 * record is sent with an id nobody has (and a body its schema accepts): each must answer its not-found error and
 * leave the audit trail as it was. Read from the document, so a new write route is covered without a line here.
 */
describe.each(availableEngines())("refused writes leave no audit entry on %s", (engine) => {
  let rt: TestRuntime;
  let doc: Json;
  let orgToken: string;
  let platformToken: string;
  let push: FakePushService;
  let receiver: WebhookReceiver;

  beforeAll(async () => {
    push = await new FakePushService().start();
    receiver = await new WebhookReceiver().start();
    rt = await startTestRuntime({ OPENPRACTICE_PLAN_LIMITS: '{"free":100000}' }, { engine });
    doc = await (await fetch(`${rt.url}/openapi.json`)).json();
    orgToken = await rt.token({ userId: 7, scope: "read write admin" });
    platformToken = await rt.token({ platform: true, scope: "platform:admin" });
  });
  afterAll(async () => {
    await rt?.stop();
    await push?.stop();
    await receiver?.stop();
  });

  it("a device, a webhook subscription and a notification of another organisation: not found, and nothing recorded", async () => {
    const other = await rt.token({ organisationId: 2, userId: 8, scope: "read write admin" });
    const created = async (path: string, body: unknown) => {
      const res = await rt.call("POST", path, { token: other, body });
      expect(res.status, path).toBeLessThan(300);
      return res.json();
    };
    const browser = push.subscribe();
    const device = await created("/apis/v1/notifications/devices", {
      user_id: "u-1",
      user_type: "PATIENT",
      endpoint: browser.endpoint,
      keys: browser.keys,
    });
    const subscription = await created("/apis/v1/webhooks/subscriptions", {
      name: "EMR sync",
      event_types: ["patient.created"],
      notification_url: `${receiver.url}/hooks/foreign`,
    });
    const notification = await created("/apis/v1/notifications/deliver", {
      recipient: { user_id: "u-1", user_type: "PATIENT" },
      notification: { title: "Your appointment moved", body: "Open the app to see the new time" },
    });
    const before = Number(await rt.scalar("select count(*) from audit_events where organisation_id = 1"));
    for (const [method, path] of [
      ["DELETE", `/apis/v1/notifications/devices/${device.device_id}`],
      ["DELETE", `/apis/v1/webhooks/subscriptions/${subscription.subscription.id}`],
      ["POST", `/apis/v1/notifications/${notification.notification_id}/read`],
    ] as const) {
      const res = await rt.call(method, path, { token: orgToken });
      expect(res.status, path).toBe(404);
    }
    expect(Number(await rt.scalar("select count(*) from audit_events where organisation_id = 1"))).toBe(before);
    // Still there for their owner.
    const own = await rt.call("GET", `/apis/v1/notifications/devices/${device.device_id}`, { token: other });
    expect(own.status).toBe(200);
  });

  it("every write with an unknown path id answers not found and records nothing", async () => {
    const entries = async () => Number(await rt.scalar("select count(*) from audit_events"));
    const operations = auditedWritesWithPathIds(doc);
    expect(operations.length).toBeGreaterThan(40);
    const leftEntries: string[] = [];
    const notRefusedAsUnknown: string[] = [];
    for (const { method, template, op } of operations) {
      const platform = op.security.some((s: Json) => (s.bearerAuth ?? []).includes("platform:admin"));
      const path = template.replace(/\{[^}]+\}/g, UNKNOWN_ID);
      const before = await entries();
      let answer = "";
      let code: string | null = null;
      for (const body of bodiesFor(doc, op, `${method} ${template}`)) {
        const res = await rt.call(method, path, {
          token: platform ? platformToken : orgToken,
          body: body ?? (method === "DELETE" ? undefined : {}),
        });
        const text = await res.text();
        code = errorCodeOf(text ? JSON.parse(text) : null);
        answer = `${res.status} ${text.slice(0, 300)}`;
        if (code !== "VALIDATION_FAILED") break;
      }
      if (!code?.endsWith("_NOT_FOUND")) notRefusedAsUnknown.push(`${method} ${template}: ${answer}`);
      if ((await entries()) !== before) leftEntries.push(`${method} ${template} (${code})`);
    }
    expect(leftEntries).toEqual([]);
    expect(notRefusedAsUnknown).toEqual([]);
  });
});
