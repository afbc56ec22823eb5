import { createHmac } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { availableEngines } from "../support/engines.js";
import { FakePushService } from "../support/push-service.js";
import { startTestRuntime, type TestRuntime } from "../support/runtime-fixture.js";
import { WebhookReceiver } from "../support/webhook-receiver.js";

/** Whether X-Service-Signature (t=<unix>,v1=<hex>) is the HMAC-SHA256 of `<t>.<body>` with the key: node:crypto alone. */
function signedWith(key: string, header: string | undefined, body: string): boolean {
  const match = /^t=(\d+)((?:,v1=[0-9a-f]{64})+)$/.exec(header ?? "");
  if (!match) return false;
  return (match[2] as string)
    .split(",v1=")
    .slice(1)
    .includes(createHmac("sha256", key).update(`${match[1]}.${body}`).digest("hex"));
}

// Issue 19's walk through a week (2028-03-06 is a Monday), on every engine this run has (SQLite; PostgreSQL and
// MariaDB in CI): schedules for two providers, a block, slots that honour both, a booking through a slot, a
// cancellation whose freed slot becomes a waitlist offer delivered as a signed webhook and a real Web Push to a
// local push service, the offer accepted, and the slot gone from GET /v2/slots.
for (const engine of availableEngines()) {
  describe(`[${engine}] a week of scheduling with the waitlist`, () => {
    let rt: TestRuntime;
    let receiver: WebhookReceiver;
    let push: FakePushService;
    const ids = { clinic: "", ada: "", bo: "", type: "", booker: "", waiting: "" };

    const json = async (res: Response) => ({ status: res.status, body: await res.json(), res });
    const call = (method: string, path: string, body?: unknown, token?: string) =>
      rt.call(method, path, { ...(body === undefined ? {} : { body }), ...(token ? { token } : {}) }).then(json);
    const slotsOf = async (provider: string, startDate: string, days: number) =>
      (
        await call(
          "GET",
          `/v2/slots?provider_id=${provider}&clinic_id=${ids.clinic}&appointment_type_id=${ids.type}&start_date=${startDate}&days=${days}`,
        )
      ).body.data[0].slots as string[];
    const until = async <T>(what: string, read: () => Promise<T | undefined>, timeoutMs = 10_000): Promise<T> => {
      const deadline = Date.now() + timeoutMs;
      for (;;) {
        const value = await read();
        if (value !== undefined) return value;
        if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 50));
      }
    };

    beforeAll(async () => {
      receiver = await new WebhookReceiver().start();
      push = await new FakePushService().start();
      rt = await startTestRuntime(
        { OPENPRACTICE_PLAN_LIMITS: '{"free":100000}', OPENPRACTICE_WORKER_POLL_MS: "50" },
        { engine },
      );
      const admin = await rt.token({ scope: "admin read write" });
      ids.clinic = (await call("POST", "/v2/clinics", { name: "Lakeview", time_zone: "America/Chicago" })).body.id;
      for (const [key, user, last] of [
        ["ada", "801", "Adams"],
        ["bo", "802", "Bowen"],
      ] as const)
        ids[key] = (
          await call("POST", "/v2/providers", {
            user_id: user,
            first_name: "Dr",
            last_name: last,
            clinic_ids: [ids.clinic],
          })
        ).body.id;
      ids.type = (
        await call(
          "POST",
          "/v2/appointment-types",
          { name: "Follow-up", type: "IN_PERSON", duration_minutes: 30 },
          admin,
        )
      ).body.id;
      await call(
        "POST",
        "/v2/cancellation-reasons",
        { reason_key: "PATIENT_ILL", reason_label: "Patient is ill" },
        admin,
      );
      for (const [key, first] of [
        ["booker", "Bea"],
        ["waiting", "Wes"],
      ] as const)
        ids[key] = (
          await call("POST", "/v2/patients", { first_name: first, last_name: "Week", date_of_birth: "1985-05-05" })
        ).body.id;
    });
    afterAll(async () => {
      await rt.stop();
      await receiver.stop();
      await push.stop();
    });

    it("walks the week", async () => {
      // Working hours: Ada weekdays 09:00-17:00; Bo Mondays and Wednesdays 10:00-14:00.
      const shift = (provider: string, weekdays: string[], start: string, end: string) =>
        call("POST", `/v2/providers/${provider}/schedules`, {
          clinic_id: ids.clinic,
          weekdays,
          start_time: start,
          end_time: end,
          effective_from: "2028-03-06",
        });
      expect((await shift(ids.ada, ["MO", "TU", "WE", "TH", "FR"], "09:00", "17:00")).status).toBe(201);
      expect((await shift(ids.bo, ["MO", "WE"], "10:00", "14:00")).status).toBe(201);
      // A block: Ada's Tuesday lunch.
      const block = await call("POST", `/v2/providers/${ids.ada}/blocks`, {
        start: "2028-03-07T12:00:00-06:00",
        end: "2028-03-07T13:00:00-06:00",
        reason: "Lunch",
      });
      expect(block.status).toBe(201);

      // Slots honour both: Ada's Tuesday has no 12:00 or 12:30; Bo has Monday and Wednesday 10:00-13:30 only.
      const ada = await slotsOf(ids.ada, "2028-03-06", 5);
      expect(ada).toHaveLength(16 * 5 - 2);
      expect(ada).not.toContain("2028-03-07T12:00:00-06:00");
      expect(ada).not.toContain("2028-03-07T12:30:00-06:00");
      expect(ada).toContain("2028-03-07T13:00:00-06:00");
      const bo = await slotsOf(ids.bo, "2028-03-06", 5);
      expect(bo.map((s) => s.slice(0, 10))).toEqual([...Array(8).fill("2028-03-06"), ...Array(8).fill("2028-03-08")]);
      expect(bo[0]).toBe("2028-03-06T10:00:00-06:00");
      expect(bo[7]).toBe("2028-03-06T13:30:00-06:00");

      // A booking through a slot: Wednesday 09:00 with Ada.
      const wednesday9 = "2028-03-08T09:00:00-06:00";
      expect(await slotsOf(ids.ada, "2028-03-08", 1)).toContain(wednesday9);
      const booked = await call("POST", "/v2/appointments", {
        patient_id: ids.booker,
        provider_id: ids.ada,
        clinic_id: ids.clinic,
        appointment_type_id: ids.type,
        slot_start: wednesday9,
        payment_mode: "SELF_PAY",
      });
      expect(booked.status).toBe(201);
      expect(await slotsOf(ids.ada, "2028-03-08", 1)).not.toContain(wednesday9);

      // The waiting patient: Ada, Wednesday mornings; a webhook subscription and their browser.
      const request = await call("POST", "/v2/waitlist-requests", {
        patient_id: ids.waiting,
        provider_ids: [ids.ada],
        appointment_type_id: ids.type,
        preferred_days: ["WE"],
        time_windows: [{ start: "08:00", end: "12:00" }],
        earliest_date: "2028-03-06",
        latest_date: "2028-03-31",
        priority: "high",
        payment_mode: "INSURANCE_PAY",
      });
      expect(request.status).toBe(201);
      expect(request.body).toMatchObject({ status: "waiting", offer: null, offers_made: 0 });
      const subscription = await call("POST", "/apis/v1/webhooks/subscriptions", {
        name: "Front desk",
        event_types: ["waitlist.offer_created"],
        notification_url: `${receiver.url}/hooks/waitlist`,
      });
      expect(subscription.status).toBe(201);
      const browser = push.subscribe();
      const device = await call("POST", "/apis/v1/notifications/devices", {
        user_id: ids.waiting,
        user_type: "PATIENT",
        endpoint: browser.endpoint,
        keys: browser.keys,
      });
      expect(device.status).toBe(201);

      // The cancellation frees the slot; the matcher (a job) offers it to the waiting request.
      const cancelled = await call("POST", `/v2/appointments/${booked.body.id}/cancel`, { reason_key: "PATIENT_ILL" });
      expect(cancelled.body.status).toBe("cancelled");
      const offered = await until("the offer", async () => {
        const r = await call("GET", `/v2/waitlist-requests/${request.body.id}`);
        return r.body.status === "offered" ? r.body : undefined;
      });
      expect(offered.offer).toMatchObject({
        provider_id: ids.ada,
        clinic_id: ids.clinic,
        start: "2028-03-08T15:00:00.000Z",
        end: "2028-03-08T15:30:00.000Z",
        status: "pending",
      });
      expect(Date.parse(offered.offer.expires_at) - Date.parse(offered.offer.created_at)).toBe(30 * 60_000);
      // Held: not a slot for anyone else.
      expect(await slotsOf(ids.ada, "2028-03-08", 1)).not.toContain(wednesday9);

      // The signed webhook.
      const [hook] = await receiver.waitFor((r) => r.some((w) => w.json.event_type === "waitlist.offer_created"));
      const signed = receiver.received.find((w) => w.json.event_type === "waitlist.offer_created") ?? hook;
      expect(
        signedWith(
          subscription.body.signature_key,
          signed?.headers["x-service-signature"] as string,
          signed?.body ?? "",
        ),
      ).toBe(true);
      expect(signed?.json.data).toEqual({
        organisation_id: 1,
        waitlist_request_id: Number(request.body.id),
        waitlist_offer_id: Number(offered.offer.id),
        patient_id: Number(ids.waiting),
        provider_id: Number(ids.ada),
        clinic_id: Number(ids.clinic),
      });

      // The real Web Push: VAPID checked and the body decrypted by the local push service, as a browser would.
      const received = await until("the push", async () => push.pushesTo(browser)[0]);
      expect(received.problem).toBeNull();
      expect(received.status).toBe(201);
      expect(received.message).toMatchObject({
        title: "An earlier appointment is available",
        body: expect.stringContaining("Lakeview, Mar 8, 2028, 9:00"),
        link: `type=waitlist_offer&waitlist_request_id=${request.body.id}&waitlist_offer_id=${offered.offer.id}`,
      });

      // Accepted: the appointment is booked for the waiting patient, and the slot is gone.
      const accepted = await call("POST", `/v2/waitlist-requests/${request.body.id}/accept-offer`);
      expect(accepted.status).toBe(201);
      expect(accepted.body.waitlist_request).toMatchObject({
        status: "booked",
        appointment_id: accepted.body.appointment.id,
      });
      expect(accepted.body.appointment).toMatchObject({
        patient_id: ids.waiting,
        provider_id: ids.ada,
        start: "2028-03-08T15:00:00.000Z",
        status: "scheduled",
        payment_mode: "INSURANCE_PAY",
      });
      expect(await slotsOf(ids.ada, "2028-03-08", 1)).not.toContain(wednesday9);
      const mine = await call("GET", `/v2/appointments?patient_id=${ids.waiting}`);
      expect(mine.body.data.map((a: { id: string }) => a.id)).toEqual([accepted.body.appointment.id]);
      expect((await call("POST", `/v2/waitlist-requests/${request.body.id}/accept-offer`)).status).toBe(409);
    });
  });
}
