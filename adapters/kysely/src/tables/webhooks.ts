import type { Generated } from "kysely";

export interface WebhookSubscriptionsTable {
  id: Generated<number>;
  organisation_id: number;
  name: string;
  /** JSON array of event types. */
  event_types: string;
  notification_url: string;
  api_version: string;
  is_active: number;
  /** AES-256-GCM sealed signature key (SecretCipher); never the key itself. */
  encrypted_key: string;
  /** Migration 024: the key rotated out (encrypted) and when it stops signing; the signature format. */
  previous_encrypted_key: string | null;
  previous_key_expires_at: string | null;
  signature_format: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  organisation_id: number;
  subscription_id: number;
  outbox_id: number | null;
  event_id: string;
  event_type: string;
  api_version: string;
  data: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  attempt_id: string;
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

/** The webhooks domain's tables by name: its line in `Database` (schema.ts). */
export interface WebhooksSchema {
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
}
