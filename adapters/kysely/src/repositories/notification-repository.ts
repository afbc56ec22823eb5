import type {
  Device,
  DevicePush,
  Notification,
  NotificationDeliveryStatus,
  NotificationRepository,
  PushAttempt,
  PushOutcome,
  PushStatus,
  Recipient,
  UserType,
} from "@openpractice/core";
import { createHash } from "node:crypto";
import type { Kysely, Selectable } from "kysely";
import { readLatest } from "../contention.js";
import { insertIgnoringDuplicate } from "../insert-ignoring-duplicate.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { NotificationDevicesTable, NotificationPushesTable, NotificationsTable } from "../tables/notifications.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const endpointHash = (endpoint: string) => createHash("sha256").update(endpoint).digest("hex");
const optionalTime = (s: string | null) => (s === null ? null : fromDbTime(s));

const toDevice = (r: Selectable<NotificationDevicesTable>): Device => ({
  id: r.id,
  organisationId: Number(r.organisation_id),
  userType: r.user_type as UserType,
  userId: r.user_id,
  endpoint: r.endpoint,
  keys: { p256dh: r.p256dh, auth: r.auth },
  label: r.label,
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

const toNotification = (r: Selectable<NotificationsTable>): Notification => ({
  id: r.id,
  organisationId: Number(r.organisation_id),
  userType: r.user_type as UserType,
  userId: r.user_id,
  title: r.title,
  body: r.body,
  link: r.link,
  idempotencyKey: r.idempotency_key,
  deliveryStatus: r.delivery_status as NotificationDeliveryStatus,
  readAt: optionalTime(r.read_at),
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

const toPush = (r: Selectable<NotificationPushesTable>): DevicePush => ({
  notificationId: r.notification_id,
  deviceId: r.device_id,
  organisationId: Number(r.organisation_id),
  pushService: r.push_service,
  status: r.status as PushStatus,
  attempts: Number(r.attempts),
  lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
  error: r.error,
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

export class KyselyNotificationRepository implements NotificationRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  private devicesOf(organisationId: number, r: Recipient) {
    return this.db
      .selectFrom("notification_devices")
      .where("organisation_id", "=", organisationId)
      .where("user_type", "=", r.userType)
      .where("user_id", "=", r.userId);
  }

  private inboxOf(organisationId: number, r: Recipient) {
    return this.db
      .selectFrom("notifications")
      .where("organisation_id", "=", organisationId)
      .where("user_type", "=", r.userType)
      .where("user_id", "=", r.userId);
  }

  async upsertDevice(d: Device) {
    const hash = endpointHash(d.endpoint);
    const owner = {
      user_type: d.userType,
      user_id: d.userId,
      p256dh: d.keys.p256dh,
      auth: d.keys.auth,
      label: d.label,
      updated_at: toDbTime(d.updatedAt),
    };
    const created = await insertIgnoringDuplicate(
      this.db,
      this.profile,
      "notification_devices",
      {
        id: d.id,
        organisation_id: d.organisationId,
        endpoint: d.endpoint,
        endpoint_hash: hash,
        created_at: toDbTime(d.createdAt),
        ...owner,
      },
      ["organisation_id", "endpoint_hash"],
    );
    if (!created)
      await this.db
        .updateTable("notification_devices")
        .set(owner)
        .where("organisation_id", "=", d.organisationId)
        .where("endpoint_hash", "=", hash)
        .execute();
    const row = await readLatest(
      this.profile,
      this.db
        .selectFrom("notification_devices")
        .selectAll()
        .where("organisation_id", "=", d.organisationId)
        .where("endpoint_hash", "=", hash),
    ).executeTakeFirstOrThrow();
    return { device: toDevice(row), created };
  }

  async findDevice(organisationId: number, id: string) {
    const row = await this.db
      .selectFrom("notification_devices")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toDevice(row) : undefined;
  }

  async listDevices(organisationId: number, recipient: Recipient) {
    return (
      await this.devicesOf(organisationId, recipient).selectAll().orderBy("created_at").orderBy("id").execute()
    ).map(toDevice);
  }

  async deleteDevice(organisationId: number, id: string) {
    const result = await this.db
      .deleteFrom("notification_devices")
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async insertNotification(n: Notification) {
    return insertIgnoringDuplicate(
      this.db,
      this.profile,
      "notifications",
      {
        id: n.id,
        organisation_id: n.organisationId,
        user_type: n.userType,
        user_id: n.userId,
        title: n.title,
        body: n.body,
        link: n.link,
        idempotency_key: n.idempotencyKey,
        delivery_status: n.deliveryStatus,
        read_at: n.readAt ? toDbTime(n.readAt) : null,
        created_at: toDbTime(n.createdAt),
        updated_at: toDbTime(n.updatedAt),
      },
      ["organisation_id", "idempotency_key"],
    );
  }

  async findNotification(organisationId: number, id: string) {
    const row = await this.db
      .selectFrom("notifications")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toNotification(row) : undefined;
  }

  async findNotificationById(id: string) {
    const row = await this.db.selectFrom("notifications").selectAll().where("id", "=", id).executeTakeFirst();
    return row ? toNotification(row) : undefined;
  }

  async findByIdempotencyKey(organisationId: number, key: string) {
    const row = await this.db
      .selectFrom("notifications")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("idempotency_key", "=", key)
      .executeTakeFirst();
    return row ? toNotification(row) : undefined;
  }

  async setDeliveryStatus(id: string, status: NotificationDeliveryStatus, at: Date) {
    await this.db
      .updateTable("notifications")
      .set({ delivery_status: status, updated_at: toDbTime(at) })
      .where("id", "=", id)
      .execute();
  }

  async listInbox(
    organisationId: number,
    recipient: Recipient,
    filter: { unreadOnly: boolean; limit: number; offset: number },
  ) {
    const all = this.inboxOf(organisationId, recipient);
    const listed = filter.unreadOnly ? all.where("read_at", "is", null) : all;
    const count = async (q: typeof all) =>
      Number((await q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow()).n);
    // Listing unread entries only, the list's count is the unread count: one count query, not two.
    const [rows, total, unread] = await Promise.all([
      listed
        .selectAll()
        .orderBy("created_at", "desc")
        .orderBy("id", "desc")
        .limit(filter.limit)
        .offset(filter.offset)
        .execute(),
      count(listed),
      filter.unreadOnly ? undefined : count(all.where("read_at", "is", null)),
    ]);
    return { entries: rows.map(toNotification), total, unread: unread ?? total };
  }

  async markRead(organisationId: number, id: string, at: Date) {
    const time = toDbTime(at);
    await this.db
      .updateTable("notifications")
      .set({ read_at: time, updated_at: time })
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .where("read_at", "is", null)
      .execute();
    return this.findNotification(organisationId, id);
  }

  async markAllRead(organisationId: number, recipient: Recipient, at: Date) {
    const time = toDbTime(at);
    const result = await this.db
      .updateTable("notifications")
      .set({ read_at: time, updated_at: time })
      .where("organisation_id", "=", organisationId)
      .where("user_type", "=", recipient.userType)
      .where("user_id", "=", recipient.userId)
      .where("read_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows);
  }

  async insertPush(p: DevicePush) {
    await insertIgnoringDuplicate(
      this.db,
      this.profile,
      "notification_pushes",
      {
        notification_id: p.notificationId,
        device_id: p.deviceId,
        organisation_id: p.organisationId,
        push_service: p.pushService,
        status: p.status,
        attempts: p.attempts,
        last_status_code: p.lastStatusCode,
        error: p.error,
        created_at: toDbTime(p.createdAt),
        updated_at: toDbTime(p.updatedAt),
      },
      ["notification_id", "device_id"],
    );
  }

  async listPushes(notificationId: string) {
    return (
      await this.db
        .selectFrom("notification_pushes")
        .selectAll()
        .where("notification_id", "=", notificationId)
        .orderBy("created_at")
        .orderBy("device_id")
        .execute()
    ).map(toPush);
  }

  async updatePush(p: DevicePush) {
    await this.db
      .updateTable("notification_pushes")
      .set({
        status: p.status,
        attempts: p.attempts,
        last_status_code: p.lastStatusCode,
        error: p.error,
        updated_at: toDbTime(p.updatedAt),
      })
      .where("notification_id", "=", p.notificationId)
      .where("device_id", "=", p.deviceId)
      .execute();
  }

  async appendAttempt(a: PushAttempt) {
    await this.db
      .insertInto("notification_push_attempts")
      .values({
        notification_id: a.notificationId,
        device_id: a.deviceId,
        attempt: a.attempt,
        at: toDbTime(a.at),
        status_code: a.statusCode,
        retry_after_seconds: a.retryAfterSeconds,
        duration_ms: Math.round(a.durationMs),
        outcome: a.outcome,
        error: a.error,
      })
      .execute();
  }

  async attempts(notificationId: string) {
    const rows = await this.db
      .selectFrom("notification_push_attempts")
      .selectAll()
      .where("notification_id", "=", notificationId)
      .orderBy("id")
      .execute();
    return rows.map((r) => ({
      notificationId: r.notification_id,
      deviceId: r.device_id,
      attempt: Number(r.attempt),
      at: fromDbTime(r.at),
      statusCode: r.status_code === null ? null : Number(r.status_code),
      retryAfterSeconds: r.retry_after_seconds === null ? null : Number(r.retry_after_seconds),
      durationMs: Number(r.duration_ms),
      outcome: r.outcome as PushOutcome,
      error: r.error,
    }));
  }
}
