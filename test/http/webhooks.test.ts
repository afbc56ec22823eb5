import { createHmac } from "node:crypto";
import { Ajv } from "ajv";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";
import { WebhookReceiver } from "../support/webhook-receiver.js";

const BASE = "/apis/v1/webhooks";

/** The receiver's check, written with plain node:crypto (independent of our helper), as docs/webhooks.md shows. */
function verifiedWithPlainCrypto(key: string, header: string | undefined, body: string): boolean {
  const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(header ?? "");
  if (!match) return false;
  const expected = createHmac("sha256", key).update(`${match[1]}.${body}`).digest("hex");
  return expected === match[2];
}

// The subscription API and signed delivery over HTTP, on every engine this run has.
for (const engine of availableEngines()) {
  describe(`[${engine}] webhooks over HTTP`, () => {
    let rt: TestRuntime;
    let receiver: WebhookReceiver;
    const json = async (method: string, path: string, body?: unknown, token?: string) => {
      const res = await rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) });
      return { status: res.status, body: res.status === 204 ? null : await res.json() };
    };
    const create = (over: Record<string, unknown> = {}, token?: string) =>
      json(
        "POST",
        `${BASE}/subscriptions`,
        {
          name: "EMR sync",
          event_types: ["patient.created"],
          notification_url: `${receiver.url}/hooks/${Math.random()}`,
          ...over,
        },
        token,
      );

    beforeAll(async () => {
      receiver = await new WebhookReceiver().start();
      rt = await startTestRuntime(
        { OPENPRACTICE_PLAN_LIMITS: '{"free":100000}', OPENPRACTICE_WORKER_POLL_MS: "50" },
        { engine },
      );
    });
    afterAll(async () => {
      await rt.stop();
      await receiver.stop();
    });

    it("creates a subscription (201, key once, 128 hex), hides the key on reads and stores it encrypted; creates the organisation from the token", async () => {
      const token = await rt.token({ organisationId: 77, userId: 1, organisationName: "Lakeside PT" });
      const { status, body } = await create({ event_types: ["patient.created", "case.discharged"] }, token);
      expect(status).toBe(201);
      expect(body.signature_key).toMatch(/^[0-9a-f]{128}$/);
      expect(body.message).toContain("only once");
      expect(body.subscription).toMatchObject({
        id: expect.any(String),
        organisation_id: "77",
        name: "EMR sync",
        event_types: ["patient.created", "case.discharged"],
        api_version: "2026-06-11",
        is_active: true,
      });
      expect(body.subscription.signature_key).toBeUndefined();
      const read = await json("GET", `${BASE}/subscriptions/${body.subscription.id}`, undefined, token);
      expect(read.body).toEqual(body.subscription);
      const [row] = await rt.rawRows(
        "select encrypted_key from webhook_subscriptions where id = ?",
        Number(body.subscription.id),
      );
      expect(String(row?.encrypted_key)).toMatch(/^v1\./);
      expect(String(row?.encrypted_key)).not.toContain(body.signature_key);
      expect((await json("GET", `${BASE}/organisations`, undefined, token)).body).toMatchObject({
        organisation_id: "77",
        name: "Lakeside PT",
        is_active: true,
      });
      expect((await json("GET", `${BASE}/subscriptions/${body.subscription.id}`)).status).toBe(404);
    });

    it("validates: name, event types (non-empty, known, no duplicates), URL, api_version", async () => {
      const before = Number(await rt.scalar("select count(*) from webhook_subscriptions"));
      const cases: Array<[Record<string, unknown>, number, string, string?]> = [
        [{ name: " " }, 400, "name"],
        [{ event_types: [] }, 400, "event_types"],
        [{ event_types: ["patient.created", "patient.created"] }, 400, "event_types"],
        [{ event_types: ["patient.deleted"] }, 400, "event_types"],
        [{ notification_url: "not a url" }, 400, "notification_url"],
        [{ notification_url: "ftp://example.org/x" }, 400, "notification_url"],
      ];
      for (const [over, status, field] of cases) {
        const res = await create(over);
        expect(res.status, JSON.stringify(over)).toBe(status);
        expect(res.body.error.code).toBe("VALIDATION_FAILED");
        expect(res.body.error.details.errors.map((e: { field: string }) => e.field)).toContain(field);
      }
      const version = await create({ api_version: "2020-01-01" });
      expect(version.status).toBe(400);
      expect(version.body.error).toMatchObject({
        code: "INVALID_API_VERSION",
        details: { api_version: "2020-01-01", supported_versions: ["2026-06-11"] },
      });
      expect(Number(await rt.scalar("select count(*) from webhook_subscriptions"))).toBe(before);
    });

    it("requires https outside development", async () => {
      const prod = await startTestRuntime({ OPENPRACTICE_ENV: "production" }, { shareDatabaseOf: rt });
      try {
        const res = await prod.call("POST", `${BASE}/subscriptions`, {
          body: { name: "x", event_types: ["patient.created"], notification_url: "http://example.org/hook" },
        });
        expect(res.status).toBe(400);
        expect((await res.json()).error.details.errors[0]).toMatchObject({
          field: "notification_url",
          reason: "must use https (http is accepted only with OPENPRACTICE_ENV=development)",
        });
      } finally {
        await prod.stop();
      }
    });

    it("409 DUPLICATE_SUBSCRIPTION on create, PATCH, reactivation and subscribe, naming the conflict and the overlap", async () => {
      const url = `${receiver.url}/dup`;
      const a = (await create({ notification_url: url, event_types: ["appointment.created", "appointment.cancelled"] }))
        .body.subscription;
      const clash = await create({ notification_url: url, event_types: ["appointment.cancelled", "case.updated"] });
      expect(clash.status).toBe(409);
      expect(clash.body.error).toMatchObject({
        code: "DUPLICATE_SUBSCRIPTION",
        details: { conflicting_subscription_id: a.id, overlapping_event_types: ["appointment.cancelled"] },
      });
      const b = (await create({ notification_url: url, event_types: ["case.updated"] })).body.subscription;
      expect(
        (await json("POST", `${BASE}/subscriptions/${b.id}/subscribe`, { event_types: ["appointment.created"] }))
          .status,
      ).toBe(409);
      expect(
        (await json("PATCH", `${BASE}/subscriptions/${b.id}`, { event_types: ["appointment.created"] })).status,
      ).toBe(409);
      const c = (await create({ notification_url: `${url}/other`, event_types: ["appointment.created"] })).body
        .subscription;
      expect((await json("PATCH", `${BASE}/subscriptions/${c.id}`, { notification_url: url })).status).toBe(409);
      // Deactivated, the old one no longer blocks; reactivating it now clashes with its replacement.
      expect((await json("PATCH", `${BASE}/subscriptions/${a.id}`, { is_active: false })).body.is_active).toBe(false);
      const replacement = await create({ notification_url: url, event_types: ["appointment.created"] });
      expect(replacement.status).toBe(201);
      const reactivate = await json("PATCH", `${BASE}/subscriptions/${a.id}`, { is_active: true });
      expect(reactivate.status).toBe(409);
      expect(reactivate.body.error.details.conflicting_subscription_id).toBe(replacement.body.subscription.id);
      expect(
        (await json("GET", `${BASE}/subscriptions?is_active=false`)).body.subscriptions.map(
          (s: { id: string }) => s.id,
        ),
      ).toContain(a.id);
    });

    it("20 simultaneous identical creates give exactly one 201", async () => {
      const body = { name: "race", event_types: ["patient.updated"], notification_url: `${receiver.url}/race` };
      const statuses = await Promise.all(
        Array.from({ length: 20 }, async () => (await rt.call("POST", `${BASE}/subscriptions`, { body })).status),
      );
      expect(statuses.filter((s) => s === 201)).toHaveLength(1);
      expect(statuses.filter((s) => s === 409)).toHaveLength(19);
    });

    it("subscribe and unsubscribe are idempotent; removing every event is CANNOT_REMOVE_ALL_EVENTS; delete is 204", async () => {
      const s = (await create({ event_types: ["case.created"] })).body.subscription;
      expect(
        (
          await json("POST", `${BASE}/subscriptions/${s.id}/subscribe`, {
            event_types: ["case.created", "case.updated"],
          })
        ).body.event_types,
      ).toEqual(["case.created", "case.updated"]);
      expect(
        (await json("POST", `${BASE}/subscriptions/${s.id}/subscribe`, { event_types: ["case.updated"] })).body
          .event_types,
      ).toEqual(["case.created", "case.updated"]);
      expect(
        (
          await json("POST", `${BASE}/subscriptions/${s.id}/unsubscribe`, {
            event_types: ["case.updated", "patient.created"],
          })
        ).body.event_types,
      ).toEqual(["case.created"]);
      const all = await json("POST", `${BASE}/subscriptions/${s.id}/unsubscribe`, { event_types: ["case.created"] });
      expect(all.status).toBe(400);
      expect(all.body.error.code).toBe("CANNOT_REMOVE_ALL_EVENTS");
      expect(
        (await json("POST", `${BASE}/subscriptions/${s.id}/subscribe`, { event_types: ["nope.nope"] })).status,
      ).toBe(400);
      expect((await json("DELETE", `${BASE}/subscriptions/${s.id}`)).status).toBe(204);
      expect((await json("GET", `${BASE}/subscriptions/${s.id}`)).status).toBe(404);
    });

    it("test sends a signed synthetic delivery and replies with the payload and the HTTP result; rotation invalidates the old key at once", async () => {
      const created = (
        await create({ event_types: ["appointment.updated"], notification_url: `${receiver.url}/test-hook` })
      ).body;
      const id = created.subscription.id;
      const tested = await json("POST", `${BASE}/subscriptions/${id}/test`);
      expect(tested.status).toBe(200);
      expect(tested.body.payload).toMatchObject({
        event_id: expect.stringMatching(/^evt_/),
        event_type: "appointment.updated",
        api_version: "2026-06-11",
        test: true,
        data: { organisation_id: 1 },
      });
      expect(tested.body.result).toMatchObject({ status: 200, response_excerpt: "thanks", error: null });
      // The test delivery's data validates against the event's own published schema, like a real delivery's.
      const catalog = (await json("GET", `${BASE}/event-types`)).body;
      const published = catalog.event_types.find((t: { event_type: string }) => t.event_type === "appointment.updated");
      const validate = new Ajv({ strict: false }).compile(published.data_schema);
      expect(validate(tested.body.payload.data), JSON.stringify(validate.errors)).toBe(true);
      const got = receiver.received.find((r) => r.json.event_id === tested.body.payload.event_id)!;
      expect(JSON.parse(got.body)).toEqual(tested.body.payload);
      expect(got.headers).toMatchObject({
        "content-type": "application/json",
        "user-agent": "WebhookService/2.0",
        "x-event-type": "appointment.updated",
        "x-event-id": tested.body.payload.event_id,
        "x-delivery-id": tested.body.delivery_id,
        "x-service-api-version": "2026-06-11",
      });
      expect(
        verifiedWithPlainCrypto(created.signature_key, got.headers["x-service-signature"] as string, got.body),
      ).toBe(true);

      const rotated = await json("POST", `${BASE}/subscriptions/${id}/rotate-secret`);
      expect(rotated.body.signature_key).toMatch(/^[0-9a-f]{128}$/);
      expect(rotated.body.signature_key).not.toBe(created.signature_key);
      const again = await json("POST", `${BASE}/subscriptions/${id}/test`);
      const second = receiver.received.find((r) => r.json.event_id === again.body.payload.event_id)!;
      expect(
        verifiedWithPlainCrypto(
          rotated.body.signature_key,
          second.headers["x-service-signature"] as string,
          second.body,
        ),
      ).toBe(true);
      expect(
        verifiedWithPlainCrypto(created.signature_key, second.headers["x-service-signature"] as string, second.body),
      ).toBe(false);
    });

    it("delivers outbox events to matching active subscriptions, signed, with identifiers only; records attempts", async () => {
      const org = await rt.token({ organisationId: 5, userId: 9 });
      const url = `${receiver.url}/org5`;
      const sub = (await create({ event_types: ["patient.created", "patient.updated"], notification_url: url }, org))
        .body;
      const inactive = (await create({ event_types: ["patient.created"], notification_url: `${url}/inactive` }, org))
        .body.subscription;
      await json("PATCH", `${BASE}/subscriptions/${inactive.id}`, { is_active: false }, org);
      const patient = (
        await json(
          "POST",
          "/apis/v1/patient",
          { first_name: "Hook", last_name: "Test", date_of_birth: "1990-01-01" },
          org,
        )
      ).body.data;
      const got = (await receiver.waitFor((r) => r.some((x) => x.path === "/org5"))).find((x) => x.path === "/org5");
      const delivered = receiver.received.filter((r) => r.path === "/org5");
      expect(delivered).toHaveLength(1);
      expect(got!.json).toEqual({
        event_id: expect.stringMatching(/^evt_/),
        event_type: "patient.created",
        api_version: "2026-06-11",
        timestamp: expect.any(Number),
        data: { organisation_id: 5, patient_id: patient.patient_id },
        test: false,
      });
      expect(Math.abs(got!.json.timestamp - Date.now() / 1000)).toBeLessThan(30);
      expect(verifiedWithPlainCrypto(sub.signature_key, got!.headers["x-service-signature"] as string, got!.body)).toBe(
        true,
      );
      expect(receiver.received.some((r) => r.path === "/org5/inactive")).toBe(false);
      const list = await json("GET", `${BASE}/subscriptions/${sub.subscription.id}/deliveries`, undefined, org);
      expect(list.status).toBe(200);
      // The attempt is recorded once the receiver has answered: polled until the delivery shows it.
      const deliveredOnes = async () =>
        (await json("GET", `${BASE}/subscriptions/${sub.subscription.id}/deliveries?status=delivered`, undefined, org))
          .body.deliveries;
      await expect.poll(deliveredOnes).toHaveLength(1);
      expect(await deliveredOnes()).toEqual([
        expect.objectContaining({
          event_id: got!.json.event_id,
          status: "delivered",
          attempts: 1,
          attempt_log: [expect.objectContaining({ attempt: 1, status: 200, response_excerpt: "thanks" })],
        }),
      ]);
      expect(
        (await json("GET", `${BASE}/subscriptions/${sub.subscription.id}/deliveries?status=lost`, undefined, org))
          .status,
      ).toBe(400);
    });

    it("an inactive organisation gets no deliveries", async () => {
      const org = await rt.token({ organisationId: 6, userId: 9 });
      await create({ event_types: ["patient.created"], notification_url: `${receiver.url}/org6` }, org);
      expect((await json("PATCH", `${BASE}/organisations`, { is_active: false }, org)).body.is_active).toBe(false);
      await json(
        "POST",
        "/apis/v1/patient",
        { first_name: "Quiet", last_name: "Org", date_of_birth: "1990-01-01" },
        org,
      );
      // The dispatcher takes the event (marks it dispatched) and delivers nothing for an inactive organisation.
      await expect
        .poll(async () =>
          Number(await rt.scalar("select count(*) from outbox where organisation_id = 6 and dispatched_at is null")),
        )
        .toBe(0);
      await new Promise((r) => setTimeout(r, 200));
      expect(receiver.received.some((r) => r.path === "/org6")).toBe(false);
    });

    it("the event catalog lists every type with a schema, and every outbox row written so far matches its schema exactly", async () => {
      const catalog = (await json("GET", `${BASE}/event-types`)).body;
      const types = catalog.event_types.map((t: { event_type: string }) => t.event_type);
      expect(types).toEqual(
        expect.arrayContaining([
          "patient.created",
          "patient.updated",
          "appointment.created",
          "appointment.updated",
          "appointment.cancelled",
          "case.created",
          "case.updated",
          "case.discharged",
          "soap_note.created",
          "soap_note.completed",
        ]),
      );
      const ajv = new Ajv({ allErrors: true });
      const validators = new Map(
        catalog.event_types.map((t: { event_type: string; data_schema: object }) => [
          t.event_type,
          ajv.compile(t.data_schema),
        ]),
      );
      const rows = await rt.rawRows("select event_type, data from outbox");
      expect(rows.length).toBeGreaterThan(0);
      for (const row of rows) {
        const validate = validators.get(String(row.event_type)) as ((d: unknown) => boolean) | undefined;
        expect(validate, String(row.event_type)).toBeDefined();
        expect(validate!(JSON.parse(String(row.data))), `${row.event_type} ${row.data}`).toBe(true);
      }
    });
  });
}
