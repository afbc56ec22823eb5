import type { Generated } from "kysely";

export interface NotificationDevicesTable {
  /** dev_<uuid> */
  id: string;
  organisation_id: number;
  user_type: string;
  user_id: string;
  endpoint: string;
  /** SHA-256 hex of endpoint; unique per organisation (migration 011). */
  endpoint_hash: string;
  p256dh: string;
  auth: string;
  label: string | null;
  created_at: string;
  updated_at: string;
}

export interface NotificationsTable {
  /** ntf_<uuid> */
  id: string;
  organisation_id: number;
  user_type: string;
  user_id: string;
  title: string;
  body: string | null;
  link: string | null;
  /** Unique per organisation when not null. */
  idempotency_key: string | null;
  delivery_status: string;
  read_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface NotificationPushesTable {
  notification_id: string;
  device_id: string;
  organisation_id: number;
  push_service: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface NotificationPushAttemptsTable {
  id: Generated<number>;
  notification_id: string;
  device_id: string;
  attempt: number;
  at: string;
  status_code: number | null;
  retry_after_seconds: number | null;
  duration_ms: number;
  outcome: string;
  error: string | null;
}

/** The notifications domain's tables by name: its line in `Database` (schema.ts). */
export interface NotificationsSchema {
  notification_devices: NotificationDevicesTable;
  notifications: NotificationsTable;
  notification_pushes: NotificationPushesTable;
  notification_push_attempts: NotificationPushAttemptsTable;
}
