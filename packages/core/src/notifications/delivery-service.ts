import type { Clock } from "../kernel/clock.js";
import type { Storage } from "../kernel/storage.js";
import type { NotificationServiceRepositories } from "./notification-service-repositories.js";
import type { NotificationDeliveryStatus, PushOutcome, PushStatus } from "./notification.js";
import { pushPayload } from "./notification-rules.js";
import { classifyPush, PUSH_TTL_SECONDS, summariseDelivery } from "./push-outcome.js";
import type { PushSendResult, PushTransport } from "./push-transport.js";

const SETTLED: Record<PushOutcome, PushStatus> = {
  delivered: "delivered",
  expired: "expired",
  rejected: "failed",
  retry: "pending",
};

/** What one attempt came to; "settled" means there was nothing left to send to that device. */
export interface AttemptReport {
  outcome: PushOutcome | "settled";
  retryAfterSeconds: number | null;
  statusCode: number | null;
  /** What went wrong, as stored on the push (the push service's status when it gave no reason); null when delivered. */
  error: string | null;
}

/**
 * The pushes of a queued notification, one per device of the recipient, in
 * steps the delivery job composes: `prepare` fixes the devices, `attempt`
 * sends once and records what happened, `giveUp` settles a push whose retries
 * ran out, `finish` sets the notification's status. When to retry and how
 * long to wait is the job's business (the runtime's, where timers live): the
 * core decides what each answer means and keeps the record.
 */
export class NotificationDeliveryService {
  constructor(
    private readonly deps: {
      storage: Storage<NotificationServiceRepositories>;
      clock: Clock;
      transport: PushTransport;
    },
  ) {}

  /**
   * Creates a push for each current device of the recipient (once: a job run
   * again after a crash adds only devices registered since) and returns the
   * devices whose push is still pending. Nothing for a notification already
   * finished or gone.
   */
  async prepare(notificationId: string): Promise<string[]> {
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const n = await tx.notifications.findNotificationById(notificationId);
      if (!n || n.deliveryStatus !== "queued") return [];
      for (const device of await tx.notifications.listDevices(n.organisationId, n)) {
        const pushService = new URL(device.endpoint).origin;
        await tx.notifications.insertPush({
          notificationId,
          deviceId: device.id,
          organisationId: n.organisationId,
          pushService,
          status: "pending",
          attempts: 0,
          lastStatusCode: null,
          error: null,
          createdAt: now,
          updatedAt: now,
        });
      }
      return (await tx.notifications.listPushes(notificationId))
        .filter((p) => p.status === "pending")
        .map((p) => p.deviceId);
    });
  }

  /**
   * One attempt at one device's push, with the device's current keys. The
   * attempt and the push's new state commit together; a 404 or 410 also
   * removes the device. "retry" leaves the push pending for the caller to try
   * again (after retryAfterSeconds at the least).
   */
  async attempt(notificationId: string, deviceId: string): Promise<AttemptReport> {
    const r = this.deps.storage.repositories.notifications;
    const n = await r.findNotificationById(notificationId);
    const push = await this.pushOf(notificationId, deviceId);
    if (!n || !push || push.status !== "pending")
      return { outcome: "settled", retryAfterSeconds: null, statusCode: null, error: null };
    const device = await r.findDevice(n.organisationId, deviceId);
    // A browser re-registered by another user (a shared computer) since the push was prepared must not show this user's message.
    const stillTheirs = device && device.userType === n.userType && device.userId === n.userId;
    const result: PushSendResult = stillTheirs
      ? await this.deps.transport.send(device, pushPayload(n.id, n), { ttlSeconds: PUSH_TTL_SECONDS })
      : {
          statusCode: null,
          retryAfterSeconds: null,
          durationMs: 0,
          error: device
            ? "the device now belongs to another user: not sent"
            : "the device was removed before this attempt",
          permanent: true,
        };
    const outcome = classifyPush(result);
    const at = this.deps.clock.now();
    const attempt = push.attempts + 1;
    const error =
      outcome === "delivered"
        ? null
        : (result.error ?? (result.statusCode === null ? null : `push service answered ${result.statusCode}`));
    await this.deps.storage.transaction(async (tx) => {
      await tx.notifications.appendAttempt({
        notificationId,
        deviceId,
        attempt,
        at,
        statusCode: result.statusCode,
        retryAfterSeconds: result.retryAfterSeconds,
        durationMs: Math.round(result.durationMs),
        outcome,
        error: result.error,
      });
      await tx.notifications.updatePush({
        ...push,
        status: SETTLED[outcome],
        attempts: attempt,
        lastStatusCode: result.statusCode,
        error,
        updatedAt: at,
      });
      if (outcome === "expired") await tx.notifications.deleteDevice(n.organisationId, deviceId);
    });
    return { outcome, retryAfterSeconds: result.retryAfterSeconds, statusCode: result.statusCode, error };
  }

  private async pushOf(notificationId: string, deviceId: string) {
    return (await this.deps.storage.repositories.notifications.listPushes(notificationId)).find(
      (p) => p.deviceId === deviceId,
    );
  }

  /** Settles a push still pending when retrying stops: failed, with the reason. */
  async giveUp(notificationId: string, deviceId: string, reason: string): Promise<void> {
    const push = await this.pushOf(notificationId, deviceId);
    if (push?.status === "pending")
      await this.deps.storage.repositories.notifications.updatePush({
        ...push,
        status: "failed",
        error: reason,
        updatedAt: this.deps.clock.now(),
      });
  }

  /**
   * Sets the notification's delivery status from its pushes (any still
   * pending is failed first). `alsoInTransaction` commits with it: the job
   * runner completes the job there, so a finished notification is never
   * delivered again.
   */
  async finish(
    notificationId: string,
    options: { alsoInTransaction?: (tx: NotificationServiceRepositories) => Promise<unknown> } = {},
  ): Promise<NotificationDeliveryStatus | undefined> {
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const n = await tx.notifications.findNotificationById(notificationId);
      let status: NotificationDeliveryStatus | undefined;
      if (n && n.deliveryStatus === "queued") {
        const pushes = await tx.notifications.listPushes(notificationId);
        for (const p of pushes.filter((x) => x.status === "pending")) {
          await tx.notifications.updatePush({
            ...p,
            status: "failed",
            error: p.error ?? "not sent before the delivery job ended",
            updatedAt: now,
          });
          p.status = "failed";
        }
        status = summariseDelivery(pushes);
        await tx.notifications.setDeliveryStatus(notificationId, status, now);
      }
      await options.alsoInTransaction?.(tx);
      return status;
    });
  }
}
