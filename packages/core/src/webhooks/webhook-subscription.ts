import type { Patch } from "../kernel/patch.js";

/** Payload versions a subscription may pin (spec 9.1); the last is the default. */
export const WEBHOOK_API_VERSIONS = ["2026-06-11"] as const;
export const LATEST_WEBHOOK_API_VERSION = "2026-06-11";

/**
 * How deliveries are signed: `service` (the spec's X-Service-Signature, the default) or `standard` (the Standard
 * Webhooks headers webhook-id, webhook-timestamp and webhook-signature, for receivers using its libraries).
 */
export const SIGNATURE_FORMATS = ["service", "standard"] as const;
export type SignatureFormat = (typeof SIGNATURE_FORMATS)[number];

/** The longest overlap of a rotated-out key with its successor: 7 days. */
export const MAX_KEY_ROTATION_GRACE_SECONDS = 7 * 24 * 3600;

export interface WebhookSubscription {
  id: number;
  organisationId: number;
  name: string;
  eventTypes: string[];
  notificationUrl: string;
  apiVersion: string;
  isActive: boolean;
  signatureFormat: SignatureFormat;
  /** Until then deliveries are also signed with the key rotated out (a rotation with a grace period); else null. */
  previousKeyExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

export interface SubscriptionDraft {
  name: string;
  eventTypes: string[];
  notificationUrl: string;
  apiVersion?: string | undefined;
  signatureFormat?: SignatureFormat | undefined;
}

export type SubscriptionChanges = Patch<SubscriptionDraft & { isActive: boolean }>;

/** A subscription as stored: with its signature key encrypted (never the key itself). */
export interface StoredSubscription extends WebhookSubscription {
  encryptedKey: string;
  /** The key rotated out, encrypted, while previousKeyExpiresAt lies ahead; else null. */
  previousEncryptedKey: string | null;
}

/** What create and rotate return once: the key in clear. */
export interface SubscriptionWithKey {
  subscription: WebhookSubscription;
  signatureKey: string;
}
