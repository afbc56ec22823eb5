import type {
  DeliveryForAttempt,
  DeliveryStatus,
  EventType,
  SignatureFormat,
  StoredSubscription,
  SubscriptionRecord,
  WebhookAttempt,
  WebhookDelivery,
  WebhookRepository,
} from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { WebhookDeliveriesTable, WebhookSubscriptionsTable } from "../tables/webhooks.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { groupBy, slices } from "../batches.js";
import { insertReturningId } from "./insert-returning-id.js";

const toSubscription = (r: Selectable<WebhookSubscriptionsTable>): StoredSubscription => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  name: r.name,
  eventTypes: JSON.parse(r.event_types),
  notificationUrl: r.notification_url,
  apiVersion: r.api_version,
  isActive: Boolean(Number(r.is_active)),
  encryptedKey: r.encrypted_key,
  previousEncryptedKey: r.previous_encrypted_key,
  previousKeyExpiresAt: r.previous_key_expires_at === null ? null : fromDbTime(r.previous_key_expires_at),
  signatureFormat: r.signature_format as SignatureFormat,
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

const subscriptionColumns = (s: Omit<StoredSubscription, "id">) => ({
  name: s.name,
  event_types: JSON.stringify(s.eventTypes),
  notification_url: s.notificationUrl,
  api_version: s.apiVersion,
  is_active: s.isActive ? 1 : 0,
  encrypted_key: s.encryptedKey,
  previous_encrypted_key: s.previousEncryptedKey,
  previous_key_expires_at: s.previousKeyExpiresAt ? toDbTime(s.previousKeyExpiresAt) : null,
  signature_format: s.signatureFormat,
  updated_at: toDbTime(s.updatedAt),
});

const toDelivery = (r: Selectable<WebhookDeliveriesTable>): WebhookDelivery => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  subscriptionId: Number(r.subscription_id),
  outboxId: r.outbox_id === null ? null : Number(r.outbox_id),
  eventId: r.event_id,
  eventType: r.event_type as EventType,
  apiVersion: r.api_version,
  data: JSON.parse(r.data),
  status: r.status as DeliveryStatus,
  attempts: Number(r.attempts),
  nextAttemptAt: r.next_attempt_at ? fromDbTime(r.next_attempt_at) : null,
  lastStatusCode: r.last_status_code === null ? null : Number(r.last_status_code),
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

const deliveryColumns = (d: Omit<WebhookDelivery, "id">) => ({
  organisation_id: d.organisationId,
  subscription_id: d.subscriptionId,
  outbox_id: d.outboxId,
  event_id: d.eventId,
  event_type: d.eventType,
  api_version: d.apiVersion,
  data: JSON.stringify(d.data),
  status: d.status,
  attempts: d.attempts,
  next_attempt_at: d.nextAttemptAt ? toDbTime(d.nextAttemptAt) : null,
  last_status_code: d.lastStatusCode,
  created_at: toDbTime(d.createdAt),
  updated_at: toDbTime(d.updatedAt),
});

export class KyselyWebhookRepository implements WebhookRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async lockOrganisation(organisationId: number) {
    const result = await this.db
      .updateTable("organisations")
      .set((eb) => ({ webhook_lock: eb("webhook_lock", "+", 1) }))
      .where("id", "=", organisationId)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }

  async insertSubscription(record: SubscriptionRecord) {
    const id = await insertReturningId(this.db, this.profile, "webhook_subscriptions", {
      organisation_id: record.organisationId,
      created_at: toDbTime(record.createdAt),
      ...subscriptionColumns(record),
    });
    return { ...structuredClone(record), id };
  }

  async findSubscription(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("webhook_subscriptions")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toSubscription(row) : undefined;
  }

  async listSubscriptions(organisationId: number, filter: { isActive?: boolean }) {
    let q = this.db.selectFrom("webhook_subscriptions").selectAll().where("organisation_id", "=", organisationId);
    if (filter.isActive !== undefined) q = q.where("is_active", "=", filter.isActive ? 1 : 0);
    return (await q.orderBy("id").execute()).map(toSubscription);
  }

  async updateSubscription(s: StoredSubscription) {
    await this.db
      .updateTable("webhook_subscriptions")
      .set(subscriptionColumns(s))
      .where("organisation_id", "=", s.organisationId)
      .where("id", "=", s.id)
      .execute();
  }

  async deleteSubscription(organisationId: number, id: number) {
    const result = await this.db
      .deleteFrom("webhook_subscriptions")
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }

  async subscribersOf(organisationId: number, eventType: EventType) {
    const rows = await this.db
      .selectFrom("webhook_subscriptions as s")
      .innerJoin("organisations as o", "o.id", "s.organisation_id")
      .selectAll("s")
      .where("s.organisation_id", "=", organisationId)
      .where("s.is_active", "=", 1)
      .where("o.is_active", "=", 1)
      .orderBy("s.id")
      .execute();
    // Event types are a short JSON list: filtered here rather than with engine-specific JSON SQL.
    return rows.map(toSubscription).filter((s) => s.eventTypes.includes(eventType));
  }

  async insertDeliveries(ds: Omit<WebhookDelivery, "id">[]) {
    const inserted: WebhookDelivery[] = [];
    // 200 rows of 13 values stay far below every engine's placeholder limit.
    for (const batch of slices(ds, 200)) {
      const values = batch.map(deliveryColumns);
      // Insert-if-absent without raising: a duplicate must not abort the fan-out's transaction (PostgreSQL).
      await this.profile
        .ignoreDuplicates(this.db.insertInto("webhook_deliveries").values(values), ["subscription_id", "outbox_id"])
        .execute();
      // Which rows are ours: the fresh event ids, read back through the (subscription, outbox event) key.
      const rows = await this.db
        .selectFrom("webhook_deliveries")
        .select(["id", "event_id"])
        .where("subscription_id", "in", [...new Set(batch.map((d) => d.subscriptionId))])
        .where("outbox_id", "in", [...new Set(batch.map((d) => d.outboxId ?? 0))])
        .execute();
      const idOf = new Map(rows.map((r) => [r.event_id, Number(r.id)]));
      for (const d of batch) {
        const id = idOf.get(d.eventId);
        if (id !== undefined) inserted.push({ ...structuredClone(d), id });
      }
    }
    return inserted;
  }

  async findDelivery(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("webhook_deliveries")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toDelivery(row) : undefined;
  }

  async findDeliveriesForAttempt(ids: number[]) {
    const found = new Map<number, DeliveryForAttempt>();
    for (const batch of slices(ids, 500)) {
      const rows = await this.db
        .selectFrom("webhook_deliveries as d")
        .leftJoin("webhook_subscriptions as s", (j) =>
          j.onRef("s.id", "=", "d.subscription_id").onRef("s.organisation_id", "=", "d.organisation_id"),
        )
        .selectAll("d")
        .select([
          "s.id as s_id",
          "s.name as s_name",
          "s.event_types as s_event_types",
          "s.notification_url as s_notification_url",
          "s.api_version as s_api_version",
          "s.is_active as s_is_active",
          "s.encrypted_key as s_encrypted_key",
          "s.previous_encrypted_key as s_previous_encrypted_key",
          "s.previous_key_expires_at as s_previous_key_expires_at",
          "s.signature_format as s_signature_format",
          "s.created_at as s_created_at",
          "s.updated_at as s_updated_at",
        ])
        .where("d.id", "in", batch)
        .execute();
      for (const row of rows) {
        const subscription =
          row.s_id === null
            ? undefined
            : toSubscription({
                id: row.s_id,
                organisation_id: row.organisation_id,
                name: row.s_name!,
                event_types: row.s_event_types!,
                notification_url: row.s_notification_url!,
                api_version: row.s_api_version!,
                is_active: row.s_is_active!,
                encrypted_key: row.s_encrypted_key!,
                previous_encrypted_key: row.s_previous_encrypted_key ?? null,
                previous_key_expires_at: row.s_previous_key_expires_at ?? null,
                signature_format: row.s_signature_format ?? "service",
                created_at: row.s_created_at!,
                updated_at: row.s_updated_at!,
              });
        found.set(Number(row.id), { delivery: toDelivery(row), subscription });
      }
    }
    return found;
  }

  async updateDeliveries(ds: WebhookDelivery[]) {
    // Deliveries given the same values (a batch of successful attempts, say) share one UPDATE … WHERE id IN (…).
    const rows = ds.map((d) => ({
      id: d.id,
      values: {
        status: d.status,
        attempts: d.attempts,
        next_attempt_at: d.nextAttemptAt ? toDbTime(d.nextAttemptAt) : null,
        last_status_code: d.lastStatusCode,
        updated_at: toDbTime(d.updatedAt),
      },
    }));
    for (const group of groupBy(rows, (r) => JSON.stringify(r.values)).values()) {
      for (const ids of slices(
        group.map((r) => r.id),
        500,
      ))
        await this.db.updateTable("webhook_deliveries").set(group[0]!.values).where("id", "in", ids).execute();
    }
  }

  async listDeliveries(
    organisationId: number,
    subscriptionId: number,
    filter: { status?: DeliveryStatus; limit: number; offset: number },
  ) {
    let q = this.db
      .selectFrom("webhook_deliveries")
      .where("organisation_id", "=", organisationId)
      .where("subscription_id", "=", subscriptionId);
    if (filter.status) q = q.where("status", "=", filter.status);
    const [rows, counted] = await Promise.all([
      q.selectAll().orderBy("id", "desc").limit(filter.limit).offset(filter.offset).execute(),
      q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { deliveries: rows.map(toDelivery), total: Number(counted.n) };
  }

  async appendAttempts(as: WebhookAttempt[]) {
    for (const batch of slices(as, 200)) {
      await this.db
        .insertInto("webhook_attempts")
        .values(
          batch.map((a) => ({
            delivery_id: a.deliveryId,
            attempt: a.attempt,
            attempt_id: a.attemptId,
            at: toDbTime(a.at),
            status_code: a.statusCode,
            duration_ms: Math.round(a.durationMs),
            error: a.error,
            response_excerpt: a.responseExcerpt,
          })),
        )
        .execute();
    }
  }

  async attempts(deliveryId: number) {
    const rows = await this.db
      .selectFrom("webhook_attempts")
      .selectAll()
      .where("delivery_id", "=", deliveryId)
      .orderBy("id")
      .execute();
    return rows.map((r) => ({
      deliveryId: Number(r.delivery_id),
      attempt: Number(r.attempt),
      attemptId: r.attempt_id,
      at: fromDbTime(r.at),
      statusCode: r.status_code === null ? null : Number(r.status_code),
      durationMs: Number(r.duration_ms),
      error: r.error,
      responseExcerpt: r.response_excerpt,
    }));
  }
}
