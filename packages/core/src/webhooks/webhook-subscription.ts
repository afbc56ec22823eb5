import type { Patch } from "../patch.js";
import type { EventType } from "../events/event-catalog.js";

/** Payload versions a subscription may pin (spec 9.1); the last is the default. */
export const WEBHOOK_API_VERSIONS = ["2026-06-11"] as const;
export const LATEST_WEBHOOK_API_VERSION = "2026-06-11";

export interface WebhookSubscription {
  id: number;
  organisationId: number;
  name: string;
  eventTypes: EventType[];
  notificationUrl: string;
  apiVersion: string;
  isActive: boolean;
  createdAt: Date;
  updatedAt: Date;
}

export interface SubscriptionDraft {
  name: string;
  eventTypes: string[];
  notificationUrl: string;
  apiVersion?: string | undefined;
}

export type SubscriptionChanges = Patch<SubscriptionDraft & { isActive: boolean }>;

/** A subscription as stored: with its signature key encrypted (never the key itself). */
export interface StoredSubscription extends WebhookSubscription {
  encryptedKey: string;
}

/** What create and rotate return once: the key in clear. */
export interface SubscriptionWithKey {
  subscription: WebhookSubscription;
  signatureKey: string;
}
