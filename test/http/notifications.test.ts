import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import webpush from "web-push";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { FakePushService, type FakeBrowser } from "../support/push-service.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";

const BASE = "/apis/v1/notifications";
const NTF_ID = /^ntf_[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

// Devices, deliver, idempotency, Web Push to a real (local) push service, the inbox, on every engine this run has.
for (const engine of availableEngines()) {
  describe(`[${engine}] push notifications over HTTP`, () => {
    let rt: TestRuntime;
    let push: FakePushService;
    let userSeq = 0;
    const newUser = () => `user-${engine}-${++userSeq}`;

    const json = async (method: string, path: string, body?: unknown, token?: string | null) => {
      const res = await rt.call(method, path, {
        ...(body === undefined ? {} : { body }),
        ...(token !== undefined ? { token } : {}),
      });
      return { status: res.status, headers: res.headers, body: res.status === 204 ? null : await res.json() };
    };
    const register = (browser: FakeBrowser, userId: string, userType = "PATIENT", token?: string) =>
      json(
        "POST",
        `${BASE}/devices`,
        { user_id: userId, user_type: userType, endpoint: browser.endpoint, keys: browser.keys },
        token,
      );
    const deliver = (body: Record<string, unknown>, token?: string) => json("POST", `${BASE}/deliver`, body, token);
    const message = (userId: string, title = "Your appointment moved", extra: Record<string, unknown> = {}) => ({
      recipient: { user_id: userId, user_type: "PATIENT" },
      notification: { title, body: "Open the app to see the new time", link: "type=appointment&appointment_id=7" },
      ...extra,
    });
    /** Waits until the delivery job has finished with the notification, and returns it as GET shows it. */
    const settled = async (id: string, token?: string) => {
      const deadline = Date.now() + 20_000;
      for (;;) {
        const { body } = await json("GET", `${BASE}/${id}`, undefined, token);
        if (body.delivery_status !== "queued") return body;
        if (Date.now() > deadline) throw new Error(`notification ${id} still queued`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };
    const countRows = async (sql: string, ...params: unknown[]) => Number(await rt.scalar(sql, ...params));

    beforeAll(async () => {
      push = await new FakePushService().start();
      rt = await startTestRuntime(
        { OPENPRACTICE_WORKER_POLL_MS: "50", OPENPRACTICE_PUSH_RETRIES: "3", OPENPRACTICE_PUSH_RETRY_BASE_MS: "100" },
        { engine },
      );
    });
    afterAll(async () => {
      await rt.stop();
      await push.stop();
    });

    it("publishes the VAPID public key without a token: generated into the data directory on first start, kept on restart", async () => {
      const res = await json("GET", `${BASE}/vapid-public-key`, undefined, null);
      expect(res.status).toBe(200);
      expect(res.body.public_key).toMatch(/^B[A-Za-z0-9_-]{86}$/);
      const file = JSON.parse(readFileSync(join(rt.dataDir, "vapid-keys.json"), "utf8"));
      expect(file.publicKey).toBe(res.body.public_key);
      const again = await startTestRuntime({ OPENPRACTICE_DATA_DIR: rt.dataDir }, { shareDatabaseOf: rt });
      try {
        expect((await (await fetch(`${again.url}${BASE}/vapid-public-key`)).json()).public_key).toBe(
          res.body.public_key,
        );
      } finally {
        await again.stop();
      }
    });

    it("takes the VAPID pair and subject from configuration and signs every push with them; production refuses http endpoints", async () => {
      const pair = webpush.generateVAPIDKeys();
      const configured = await startTestRuntime(
        {
          OPENPRACTICE_VAPID_PUBLIC_KEY: pair.publicKey,
          OPENPRACTICE_VAPID_PRIVATE_KEY: pair.privateKey,
          OPENPRACTICE_VAPID_SUBJECT: "mailto:it@clinic.example",
          OPENPRACTICE_WORKER_POLL_MS: "50",
        },
        { engine },
      );
      try {
        expect((await (await fetch(`${configured.url}${BASE}/vapid-public-key`)).json()).public_key).toBe(
          pair.publicKey,
        );
        expect(existsSync(join(configured.dataDir, "vapid-keys.json"))).toBe(false);
        const browser = push.subscribe();
        const user = newUser();
        await configured.call("POST", `${BASE}/devices`, {
          body: { user_id: user, user_type: "PATIENT", endpoint: browser.endpoint, keys: browser.keys },
        });
        await configured.call("POST", `${BASE}/deliver`, { body: message(user, "Signed with the configured key") });
        const deadline = Date.now() + 10_000;
        while (push.pushesTo(browser).length === 0 && Date.now() < deadline)
          await new Promise((r) => setTimeout(r, 50));
        const [received] = push.pushesTo(browser);
        expect(received).toMatchObject({
          status: 201,
          problem: null,
          vapid: { publicKey: pair.publicKey, claims: { sub: "mailto:it@clinic.example", aud: push.url } },
          message: { title: "Signed with the configured key" },
        });
      } finally {
        await configured.stop();
      }
      const production = await startTestRuntime({ OPENPRACTICE_ENV: "production" }, { shareDatabaseOf: rt });
      try {
        const browser = push.subscribe();
        const res = await production.call("POST", `${BASE}/devices`, {
          body: { user_id: "1", user_type: "PATIENT", endpoint: browser.endpoint, keys: browser.keys },
        });
        expect(res.status).toBe(400);
        expect((await res.json()).error.details.errors).toEqual([
          expect.objectContaining({
            field: "endpoint",
            reason: "must use https (http is accepted only with OPENPRACTICE_ENV=development)",
          }),
        ]);
      } finally {
        await production.stop();
      }
    });

    it("documents every endpoint in the OpenAPI document with the schemas it validates", async () => {
      const doc = await (await fetch(`${rt.url}/openapi.json`)).json();
      for (const path of [
        "deliver",
        "vapid-public-key",
        "inbox",
        "inbox/read-all",
        "{notification_id}",
        "{notification_id}/read",
        "devices",
        "devices/{device_id}",
      ])
        expect(doc.paths).toHaveProperty([`${BASE}/${path}`]);
      const deliverOp = doc.paths[`${BASE}/deliver`].post;
      expect(deliverOp.responses).toHaveProperty("202");
      expect(deliverOp.responses).toHaveProperty("401");
      expect(deliverOp.requestBody.content["application/json"].schema.properties.recipient.required).toEqual([
        "user_id",
        "user_type",
      ]);
      const inboxParams = doc.paths[`${BASE}/inbox`].get.parameters;
      expect(inboxParams.filter((p: { required: boolean }) => p.required).map((p: { name: string }) => p.name)).toEqual(
        ["user_type", "user_id"],
      );
      expect(doc.paths[`${BASE}/vapid-public-key`].get.security).toEqual([]);
    });

    it("registers devices: 201, several per user, 200 and the same device when an endpoint registers again (moving to the new user); lists, reads and removes", async () => {
      const user = newUser();
      const [a, b] = [push.subscribe(), push.subscribe()];
      const first = await register(a, user, "patient");
      expect(first.status).toBe(201);
      expect(first.body).toMatchObject({
        device_id: expect.stringMatching(/^dev_/),
        user_id: user,
        user_type: "PATIENT",
        endpoint: a.endpoint,
        label: null,
      });
      expect(first.body.keys).toBeUndefined();
      expect(first.headers.get("location")).toBe(`${BASE}/devices/${first.body.device_id}`);
      const second = await register(b, user);
      expect(second.status).toBe(201);
      const listed = await json("GET", `${BASE}/devices?user_type=PATIENT&user_id=${user}`);
      expect(listed.body.devices.map((d: { device_id: string }) => d.device_id)).toEqual([
        first.body.device_id,
        second.body.device_id,
      ]);

      const other = newUser();
      const moved = await register(a, other);
      expect(moved.status).toBe(200);
      expect(moved.body).toMatchObject({ device_id: first.body.device_id, user_id: other });
      expect((await json("GET", `${BASE}/devices?user_type=patient&user_id=${user}`)).body.devices).toHaveLength(1);
      expect((await json("GET", `${BASE}/devices/${first.body.device_id}`)).body.user_id).toBe(other);

      expect((await json("DELETE", `${BASE}/devices/${second.body.device_id}`)).status).toBe(204);
      const gone = await json("DELETE", `${BASE}/devices/${second.body.device_id}`);
      expect(gone.status).toBe(404);
      expect(gone.body.error.code).toBe("DEVICE_NOT_FOUND");
      expect((await json("GET", `${BASE}/devices?user_type=PATIENT&user_id=${user}`)).body.devices).toEqual([]);
    });

    it("refuses a device with bad keys, endpoint or user type, naming each field, and stores nothing", async () => {
      const before = await countRows("select count(*) from notification_devices");
      const browser = push.subscribe();
      const bad = await json("POST", `${BASE}/devices`, {
        user_id: " ",
        user_type: "nurse",
        endpoint: "ftp://push.example.org/x",
        keys: { p256dh: "BAAA", auth: "short" },
      });
      expect(bad.status).toBe(400);
      expect(bad.body.error.code).toBe("VALIDATION_FAILED");
      expect(bad.body.error.details.errors.map((e: { field: string }) => e.field).sort()).toEqual([
        "endpoint",
        "keys.auth",
        "keys.p256dh",
        "user_id",
        "user_type",
      ]);
      const missing = await json("POST", `${BASE}/devices`, {
        user_id: "x",
        user_type: "PATIENT",
        endpoint: browser.endpoint,
      });
      expect(missing.body.error.details.errors).toEqual([{ field: "keys", reason: "is required" }]);
      const query = await json("GET", `${BASE}/devices?user_type=NURSE&user_id=1`);
      expect(query.status).toBe(400);
      expect(query.body.error).toMatchObject({ code: "INVALID_PARAMETER", details: { parameter: "user_type" } });
      expect(await countRows("select count(*) from notification_devices")).toBe(before);
    });

    it("delivers: 202 {notification_id: ntf_<uuid>, status: accepted}; each device of the recipient gets a VAPID-signed aes128gcm push that decrypts to title, body and link; nobody else does", async () => {
      const user = newUser();
      const [phone, laptop, providerSameId, otherOrg] = [
        push.subscribe(),
        push.subscribe(),
        push.subscribe(),
        push.subscribe(),
      ];
      await register(phone, user);
      await register(laptop, user);
      await register(providerSameId, user, "PROVIDER");
      await register(otherOrg, user, "PATIENT", await rt.token({ organisationId: 2 }));

      const res = await deliver(message(user));
      expect(res.status).toBe(202);
      expect(res.body).toEqual({ notification_id: expect.stringMatching(NTF_ID), status: "accepted" });
      const id = res.body.notification_id;
      const done = await settled(id);
      expect(done).toMatchObject({
        notification_id: id,
        recipient: { user_id: user, user_type: "PATIENT" },
        delivery_status: "delivered",
        read_at: null,
      });

      const publicKey = (await json("GET", `${BASE}/vapid-public-key`, undefined, null)).body.public_key;
      for (const browser of [phone, laptop]) {
        const [received, ...more] = push.pushesTo(browser);
        expect(more).toEqual([]);
        expect(received?.problem).toBeNull();
        expect(received?.message).toEqual({
          notification_id: id,
          title: "Your appointment moved",
          body: "Open the app to see the new time",
          link: "type=appointment&appointment_id=7",
        });
        expect(received?.vapid?.publicKey).toBe(publicKey);
        expect(received?.vapid?.claims).toMatchObject({
          aud: push.url,
          sub: expect.stringMatching(/^(mailto:|https:)/),
        });
        expect(Number(received?.headers.ttl)).toBeGreaterThan(0);
      }
      expect(push.pushesTo(providerSameId)).toEqual([]);
      expect(push.pushesTo(otherOrg)).toEqual([]);
      expect(done.deliveries).toHaveLength(2);
      for (const d of done.deliveries) {
        expect(d).toMatchObject({
          status: "delivered",
          attempts: 1,
          last_status: 201,
          push_service: push.url,
          error: null,
        });
        expect(d.attempt_log).toEqual([
          {
            attempt: 1,
            attempted_at: expect.any(String),
            status: 201,
            outcome: "delivered",
            retry_after_seconds: null,
            duration_ms: expect.any(Number),
            error: null,
          },
        ]);
      }
      const inbox = await json("GET", `${BASE}/inbox?user_type=PATIENT&user_id=${user}`);
      expect(inbox.body.entries).toEqual([
        {
          notification_id: id,
          title: "Your appointment moved",
          body: "Open the app to see the new time",
          link: "type=appointment&appointment_id=7",
          is_read: false,
          read_at: null,
          created_at: expect.any(String),
        },
      ]);
      expect(inbox.body.unread_count).toBe(1);
      expect((await json("GET", `${BASE}/inbox?user_type=PROVIDER&user_id=${user}`)).body.entries).toEqual([]);
    });

    it("10 simultaneous requests with one idempotency_key give one notification id, one row and one push per device; without a key a retry sends again", async () => {
      const user = newUser();
      const [a, b] = [push.subscribe(), push.subscribe()];
      await register(a, user);
      await register(b, user);
      const key = `appt-7-moved-${engine}`;
      const replies = await Promise.all(
        Array.from({ length: 10 }, () => deliver(message(user, "Your appointment moved", { idempotency_key: key }))),
      );
      expect(replies.map((r) => r.status)).toEqual(Array(10).fill(202));
      const ids = new Set(replies.map((r) => r.body.notification_id));
      expect(ids.size).toBe(1);
      expect(replies.filter((r) => r.headers.get("idempotent-replayed") === "true")).toHaveLength(9);
      const [id] = [...ids] as [string];
      await settled(id);
      expect(await countRows("select count(*) from notifications where idempotency_key = ?", key)).toBe(1);
      expect(
        await countRows(
          "select count(*) from jobs where queue = ? and payload like ?",
          "notifications.deliver",
          `%${id}%`,
        ),
      ).toBe(1);
      // A late repeat, after delivery, still answers the first id and sends nothing.
      expect(
        (await deliver(message(user, "Your appointment moved", { idempotency_key: key }))).body.notification_id,
      ).toBe(id);
      await new Promise((r) => setTimeout(r, 300));
      expect(push.pushesTo(a)).toHaveLength(1);
      expect(push.pushesTo(b)).toHaveLength(1);
      // The same key in another organisation is another notification.
      const elsewhere = await deliver(
        message(user, "Your appointment moved", { idempotency_key: key }),
        await rt.token({ organisationId: 2 }),
      );
      expect(elsewhere.body.notification_id).not.toBe(id);

      const reused = await deliver(message(user, "Different content", { idempotency_key: key }));
      expect(reused.status).toBe(422);
      expect(reused.body.error).toMatchObject({
        code: "IDEMPOTENCY_KEY_REUSED",
        details: { idempotency_key: key, notification_id: id },
      });

      const one = (await deliver(message(user, "Reminder"))).body.notification_id;
      const two = (await deliver(message(user, "Reminder"))).body.notification_id;
      expect(one).not.toBe(two);
      await settled(one);
      await settled(two);
      expect(push.pushesTo(a).filter((p) => p.message?.title === "Reminder")).toHaveLength(2);
    });

    it("a push service answering 410 or 404 removes that device; the others still get their push", async () => {
      const user = newUser();
      const [gone, missing, fine] = [push.subscribe(), push.subscribe(), push.subscribe()];
      const goneId = (await register(gone, user)).body.device_id;
      const missingId = (await register(missing, user)).body.device_id;
      const fineId = (await register(fine, user)).body.device_id;
      push.answer(gone, { status: 410 });
      push.answer(missing, { status: 404 });
      const id = (await deliver(message(user))).body.notification_id;
      const done = await settled(id);
      expect(done.delivery_status).toBe("partially_delivered");
      const byDevice = Object.fromEntries(done.deliveries.map((d: { device_id: string }) => [d.device_id, d]));
      expect(byDevice[goneId]).toMatchObject({ status: "expired", attempts: 1, last_status: 410 });
      expect(byDevice[goneId].attempt_log).toEqual([expect.objectContaining({ status: 410, outcome: "expired" })]);
      expect(byDevice[missingId]).toMatchObject({ status: "expired", attempts: 1, last_status: 404 });
      expect(byDevice[fineId]).toMatchObject({ status: "delivered" });
      const devices = (await json("GET", `${BASE}/devices?user_type=PATIENT&user_id=${user}`)).body.devices;
      expect(devices.map((d: { device_id: string }) => d.device_id)).toEqual([fineId]);
      // The next notification goes only to the device that is left.
      await settled((await deliver(message(user, "Second"))).body.notification_id);
      expect(push.pushesTo(gone)).toHaveLength(1);
      expect(push.pushesTo(missing)).toHaveLength(1);
      expect(push.pushesTo(fine)).toHaveLength(2);
    });

    it("429 with Retry-After is retried no sooner than asked, then delivered; every attempt is recorded", async () => {
      const user = newUser();
      const browser = push.subscribe();
      await register(browser, user);
      push.answer(browser, { status: 429, retryAfter: "1" });
      const id = (await deliver(message(user))).body.notification_id;
      const done = await settled(id);
      const [limited, accepted] = push.pushesTo(browser);
      expect(limited?.status).toBe(429);
      expect(accepted?.status).toBe(201);
      expect(accepted!.at - limited!.at).toBeGreaterThanOrEqual(1_000);
      expect(accepted?.message?.title).toBe("Your appointment moved");
      expect(done.delivery_status).toBe("delivered");
      expect(done.deliveries[0]).toMatchObject({ status: "delivered", attempts: 2, last_status: 201 });
      expect(
        done.deliveries[0].attempt_log.map(
          (a: { status: number; outcome: string; retry_after_seconds: number | null }) => [
            a.status,
            a.outcome,
            a.retry_after_seconds,
          ],
        ),
      ).toEqual([
        [429, "retry", 1],
        [201, "delivered", null],
      ]);
    });

    it("a push service failing with 5xx every time is retried with growing delays, then the push is failed with each attempt recorded", async () => {
      const user = newUser();
      const [broken, fine] = [push.subscribe(), push.subscribe()];
      const brokenId = (await register(broken, user)).body.device_id;
      await register(fine, user);
      push.answerAlways(broken, { status: 503 });
      const done = await settled((await deliver(message(user))).body.notification_id);
      const tries = push.pushesTo(broken);
      // The first attempt and OPENPRACTICE_PUSH_RETRIES=3 retries, each waiting longer (100, 200, 400 ms).
      expect(tries.map((t) => t.status)).toEqual([503, 503, 503, 503]);
      const gaps = tries.slice(1).map((t, i) => t.at - tries[i]!.at);
      expect(gaps[0]).toBeGreaterThanOrEqual(90);
      expect(gaps[2]).toBeGreaterThan(gaps[0]!);
      const failed = done.deliveries.find((d: { device_id: string }) => d.device_id === brokenId);
      expect(failed).toMatchObject({
        status: "failed",
        attempts: 4,
        last_status: 503,
        error: expect.stringContaining("gave up after 4 attempts"),
      });
      expect(failed.attempt_log.map((a: { outcome: string }) => a.outcome)).toEqual([
        "retry",
        "retry",
        "retry",
        "retry",
      ]);
      expect(done.delivery_status).toBe("partially_delivered");
      // A failing push service does not cost the device: it stays registered.
      expect((await json("GET", `${BASE}/devices/${brokenId}`)).status).toBe(200);
    });

    it("a recipient without devices still gets the inbox entry; delivery_status says no_devices", async () => {
      const user = newUser();
      const id = (await deliver(message(user))).body.notification_id;
      expect((await settled(id)).delivery_status).toBe("no_devices");
      expect(
        (await json("GET", `${BASE}/inbox?user_type=PATIENT&user_id=${user}`)).body.entries.map(
          (e: { notification_id: string }) => e.notification_id,
        ),
      ).toEqual([id]);
    });

    it("tenancy: another organisation cannot read, mark or see a notification, an inbox or a device, and its deliveries never reach this organisation's devices", async () => {
      const user = newUser();
      const browser = push.subscribe();
      const deviceId = (await register(browser, user)).body.device_id;
      const id = (await deliver(message(user))).body.notification_id;
      await settled(id);
      const other = await rt.token({ organisationId: 3 });
      for (const [method, path] of [
        ["GET", `${BASE}/${id}`],
        ["POST", `${BASE}/${id}/read`],
      ] as const) {
        const res = await json(method, path, undefined, other);
        expect(res.status, path).toBe(404);
        expect(res.body.error.code).toBe("NOTIFICATION_NOT_FOUND");
      }
      expect((await json("GET", `${BASE}/devices/${deviceId}`, undefined, other)).status).toBe(404);
      expect((await json("DELETE", `${BASE}/devices/${deviceId}`, undefined, other)).status).toBe(404);
      expect(
        (await json("GET", `${BASE}/inbox?user_type=PATIENT&user_id=${user}`, undefined, other)).body,
      ).toMatchObject({ entries: [], unread_count: 0 });
      expect(
        (await json("POST", `${BASE}/inbox/read-all`, { user_type: "PATIENT", user_id: user }, other)).body.marked_read,
      ).toBe(0);
      const theirs = (await deliver(message(user, "Not yours"), other)).body.notification_id;
      expect((await settled(theirs, other)).delivery_status).toBe("no_devices");
      expect(push.pushesTo(browser).map((p) => p.message?.title)).toEqual(["Your appointment moved"]);
      expect((await json("GET", `${BASE}/${id}`)).body.read_at).toBeNull();
    });

    it("validation is synchronous: malformed JSON and each missing or wrong field is a 400 naming it; user_type in any case is accepted; nothing is stored or queued", async () => {
      const user = newUser();
      const counts = async () => [
        await countRows("select count(*) from notifications"),
        await countRows("select count(*) from jobs where queue = ?", "notifications.deliver"),
      ];
      const before = await counts();
      const malformed = await rt.call("POST", `${BASE}/deliver`, { body: '{"recipient": {"user_id": "1"' });
      expect(malformed.status).toBe(400);
      expect((await malformed.json()).error.code).toBe("MALFORMED_JSON");
      const cases: Array<[unknown, string[]]> = [
        [{ recipient: { user_type: "PATIENT" }, notification: { title: "x" } }, ["recipient.user_id"]],
        [
          { recipient: { user_id: user, user_type: "PATIENT" }, notification: { body: "no title" } },
          ["notification.title"],
        ],
        [
          { recipient: { user_id: user, user_type: "PATIENT" }, notification: { title: "   " } },
          ["notification.title"],
        ],
        [{ recipient: { user_id: user, user_type: "NURSE" }, notification: { title: "x" } }, ["recipient.user_type"]],
        [{ notification: { title: "x" } }, ["recipient.user_id", "recipient.user_type"]],
        [{ recipient: { user_id: user, user_type: "PATIENT" } }, ["notification.title"]],
        [
          { recipient: { user_id: "", user_type: "nurse" }, notification: { title: "" } },
          ["notification.title", "recipient.user_id", "recipient.user_type"],
        ],
        [
          {
            recipient: { user_id: user, user_type: "PATIENT" },
            notification: { title: "x", body: "é".repeat(1000), link: "é".repeat(1000) },
          },
          ["notification.body"],
        ],
        [
          { recipient: { user_id: user, user_type: "PATIENT" }, notification: { title: "x" }, idempotency_key: "" },
          ["idempotency_key"],
        ],
        [
          { recipient: { user_id: user, user_type: "PATIENT" }, notification: { title: "x" }, priority: "high" },
          ["priority"],
        ],
      ];
      for (const [body, fields] of cases) {
        const res = await deliver(body as Record<string, unknown>);
        expect(res.status, JSON.stringify(body)).toBe(400);
        expect(res.body.error.code).toBe("VALIDATION_FAILED");
        expect(
          res.body.error.details.errors.map((e: { field: string }) => e.field).sort(),
          JSON.stringify(body),
        ).toEqual(fields);
        for (const field of fields) expect(res.body.error.message).toContain(field);
      }
      expect(await counts()).toEqual(before);
      for (const userType of ["patient", "Provider", "PATIENT"]) {
        const res = await deliver({
          recipient: { user_id: user, user_type: userType },
          notification: { title: "case" },
        });
        expect(res.status, userType).toBe(202);
        expect((await json("GET", `${BASE}/${res.body.notification_id}`)).body.recipient.user_type).toBe(
          userType.toUpperCase(),
        );
      }
      const numeric = await deliver({
        recipient: { user_id: 4242, user_type: "PATIENT" },
        notification: { title: "numeric id" },
      });
      expect((await json("GET", `${BASE}/${numeric.body.notification_id}`)).body.recipient.user_id).toBe("4242");
    });

    it("401 without a token or with a bad one, on deliver and on the other endpoints; nothing is stored", async () => {
      const before = await countRows("select count(*) from notifications");
      for (const token of [null, "not-a-jwt", await rt.token({ ttlSeconds: -120 })]) {
        const res = await json("POST", `${BASE}/deliver`, message("1"), token);
        expect(res.status).toBe(401);
        expect(res.body.error.code).toBe("UNAUTHORIZED");
      }
      expect((await json("GET", `${BASE}/inbox?user_type=PATIENT&user_id=1`, undefined, null)).status).toBe(401);
      expect((await json("POST", `${BASE}/devices`, {}, null)).status).toBe(401);
      const readOnly = await deliver(message("1"), await rt.token({ scope: "read" }));
      expect(readOnly.status).toBe(403);
      expect(await countRows("select count(*) from notifications")).toBe(before);
    });

    it("the inbox pages newest first; entries are marked read one by one (idempotently) or all at once; unread=true filters", async () => {
      const user = newUser();
      const ids: string[] = [];
      for (const title of ["one", "two", "three", "four", "five"]) {
        ids.push((await deliver(message(user, title))).body.notification_id);
        await new Promise((r) => setTimeout(r, 5));
      }
      const page1 = await json("GET", `${BASE}/inbox?user_type=PATIENT&user_id=${user}&size=2`);
      expect(page1.body.entries.map((e: { title: string }) => e.title)).toEqual(["five", "four"]);
      expect(page1.body.pagination).toEqual({
        current_page: 1,
        per_page: 2,
        total_count: 5,
        total_pages: 3,
        has_next: true,
      });
      const page3 = await json("GET", `${BASE}/inbox?user_type=PATIENT&user_id=${user}&size=2&page=3`);
      expect(page3.body.entries.map((e: { title: string }) => e.title)).toEqual(["one"]);
      expect(page3.body.pagination.has_next).toBe(false);

      const read = await json("POST", `${BASE}/${ids[1]}/read`);
      expect(read.status).toBe(200);
      expect(read.body).toMatchObject({
        notification_id: ids[1],
        title: "two",
        is_read: true,
        read_at: expect.any(String),
      });
      await new Promise((r) => setTimeout(r, 5));
      expect((await json("POST", `${BASE}/${ids[1]}/read`)).body.read_at).toBe(read.body.read_at);
      const unread = await json("GET", `${BASE}/inbox?user_type=PATIENT&user_id=${user}&unread=true`);
      expect(unread.body.entries.map((e: { title: string }) => e.title)).toEqual(["five", "four", "three", "one"]);
      expect(unread.body.unread_count).toBe(4);
      expect((await json("POST", `${BASE}/inbox/read-all`, { user_type: "patient", user_id: user })).body).toEqual({
        marked_read: 4,
      });
      expect((await json("GET", `${BASE}/inbox?user_type=PATIENT&user_id=${user}`)).body.unread_count).toBe(0);
      expect((await json("POST", `${BASE}/ntf_00000000-0000-4000-8000-000000000000/read`)).status).toBe(404);
      const badPage = await json("GET", `${BASE}/inbox?user_type=PATIENT&user_id=${user}&size=500`);
      expect(badPage.status).toBe(400);
      expect(badPage.body.error.details.parameter).toBe("size");
    });
  });
}
