import { ECDH } from "node:crypto";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { checkOutboundUrl } from "../kernel/outbound-url.js";
import {
  USER_TYPES,
  type DeviceDraft,
  type NotificationDraft,
  type PushKeys,
  type Recipient,
  type UserType,
} from "./notification.js";

export const NOTIFICATION_LIMITS = Object.freeze({
  userIdMax: 128,
  titleMax: 200,
  bodyMax: 1000,
  linkMax: 1000,
  idempotencyKeyMax: 255,
  labelMax: 200,
  endpointMax: 2048,
  /**
   * The push message's JSON in UTF-8. Push services take 4096 bytes of
   * encrypted body; aes128gcm adds 86 bytes and a padding byte, and we keep
   * room for multi-byte characters' growth below that.
   */
  payloadMaxBytes: 3072,
});

/** PATIENT, PROVIDER (spec 4.5) or STAFF, in any case, as the stored upper-case form; undefined otherwise. */
export function normaliseUserType(raw: unknown): UserType | undefined {
  if (typeof raw !== "string") return undefined;
  const upper = raw.trim().toUpperCase();
  return (USER_TYPES as readonly string[]).includes(upper) ? (upper as UserType) : undefined;
}

/** A user id as the string we store: integers are accepted as their decimal form (spec 2.8 says string; many systems' ids are numbers). */
function normaliseUserId(raw: unknown): string | undefined {
  if (typeof raw === "number" && Number.isSafeInteger(raw)) return String(raw);
  if (typeof raw !== "string") return undefined;
  const id = raw.trim();
  return id !== "" && id.length <= NOTIFICATION_LIMITS.userIdMax ? id : undefined;
}

/** Checks a recipient's two fields, pushing issues under `prefix` (e.g. "recipient."). */
function checkRecipient(
  issues: ValidationIssue[],
  prefix: string,
  raw: { userType?: unknown; userId?: unknown },
): Recipient | undefined {
  const userType = normaliseUserType(raw.userType);
  const userId = normaliseUserId(raw.userId);
  if (!userType)
    issues.push({
      field: `${prefix}userType`,
      reason: "must be PATIENT, PROVIDER or STAFF (any case)",
      value: raw.userType ?? null,
    });
  if (userId === undefined)
    issues.push({
      field: `${prefix}userId`,
      reason: `must be a non-empty string of at most ${NOTIFICATION_LIMITS.userIdMax} characters`,
      value: raw.userId ?? null,
    });
  return userType && userId !== undefined ? { userType, userId } : undefined;
}

/** A recipient as callers give it: user type in any case, user id as a string or an integer. */
export interface RecipientInput {
  userType?: unknown;
  userId?: unknown;
}

/** A valid recipient (user type upper-cased, id as a string), or VALIDATION_FAILED naming userType and userId. */
export function assertRecipient(raw: RecipientInput): Recipient {
  const issues: ValidationIssue[] = [];
  const recipient = checkRecipient(issues, "", raw);
  if (issues.length) throw DomainError.validation(issues);
  return recipient as Recipient;
}

/** The same for query parameters: INVALID_PARAMETER naming user_type or user_id (spec 7.5's shape). */
export function assertRecipientQuery(raw: RecipientInput): Recipient {
  const issues: ValidationIssue[] = [];
  const recipient = checkRecipient(issues, "", raw);
  const first = issues[0];
  if (first)
    throw DomainError.invalidParameter(first.field === "userType" ? "user_type" : "user_id", first.value, first.reason);
  return recipient as Recipient;
}

/** An optional text: absent, null or empty means none. */
function optionalText(issues: ValidationIssue[], field: string, raw: unknown, max: number): string | null {
  if (raw === undefined || raw === null || raw === "") return null;
  if (typeof raw !== "string" || raw.length > max) {
    issues.push({ field, reason: `must be a string of at most ${max} characters`, value: raw });
    return null;
  }
  return raw;
}

export interface ValidNotification {
  recipient: Recipient;
  title: string;
  body: string | null;
  link: string | null;
  idempotencyKey: string | null;
}

/** The push message browsers receive: title, body and link, plus the id so a service worker can mark the inbox entry read. */
export function pushPayload(notificationId: string, n: Pick<ValidNotification, "title" | "body" | "link">): string {
  return JSON.stringify({ notification_id: notificationId, title: n.title, body: n.body, link: n.link });
}

/**
 * Spec 4.5 and 7.3: recipient.user_id, recipient.user_type (PATIENT, PROVIDER or STAFF,
 * any case) and notification.title are required; body and link are optional
 * text; the whole push message must fit a push service's size limit. Every
 * problem is reported at once.
 */
export function assertValidNotification(draft: NotificationDraft): ValidNotification {
  const issues: ValidationIssue[] = [];
  const recipient = checkRecipient(issues, "recipient.", draft.recipient ?? {});
  const title = typeof draft.title === "string" ? draft.title.trim() : "";
  if (title === "" || title.length > NOTIFICATION_LIMITS.titleMax)
    issues.push({
      field: "notification.title",
      reason: `is required: 1 to ${NOTIFICATION_LIMITS.titleMax} characters`,
      value: draft.title ?? null,
    });
  const body = optionalText(issues, "notification.body", draft.body, NOTIFICATION_LIMITS.bodyMax);
  const link = optionalText(issues, "notification.link", draft.link, NOTIFICATION_LIMITS.linkMax);
  let idempotencyKey: string | null = null;
  if (draft.idempotencyKey !== undefined && draft.idempotencyKey !== null) {
    const key = draft.idempotencyKey;
    if (typeof key !== "string" || key.trim() === "" || key.length > NOTIFICATION_LIMITS.idempotencyKeyMax) {
      issues.push({
        field: "idempotencyKey",
        reason: `must be a non-empty string of at most ${NOTIFICATION_LIMITS.idempotencyKeyMax} characters`,
        value: key,
      });
    } else idempotencyKey = key;
  }
  if (issues.length === 0) {
    const bytes = Buffer.byteLength(pushPayload(`ntf_${"0".repeat(36)}`, { title, body, link }));
    if (bytes > NOTIFICATION_LIMITS.payloadMaxBytes) {
      issues.push({
        field: "notification.body",
        reason: `makes the push message ${bytes} bytes; title, body and link together must stay within ${NOTIFICATION_LIMITS.payloadMaxBytes} bytes of UTF-8 JSON`,
      });
    }
  }
  if (issues.length) throw DomainError.validation(issues);
  return { recipient: recipient as Recipient, title, body, link, idempotencyKey };
}

const BASE64URL = /^[A-Za-z0-9_-]+={0,2}$/;

/** base64url (padding tolerated) decoded, or undefined when it is not base64url. */
function base64url(raw: unknown): Buffer | undefined {
  return typeof raw === "string" && BASE64URL.test(raw) ? Buffer.from(raw, "base64url") : undefined;
}

/** p256dh must be a point on P-256, or the first push would fail to encrypt. */
function isP256Point(key: Buffer): boolean {
  try {
    ECDH.convertKey(key, "prime256v1");
    return key.length === 65 && key[0] === 4;
  } catch {
    return false;
  }
}

function checkKeys(issues: ValidationIssue[], keys: Partial<PushKeys> | undefined): void {
  const p256dh = base64url(keys?.p256dh);
  if (!p256dh || !isP256Point(p256dh))
    issues.push({
      field: "keys.p256dh",
      reason: "must be the browser's P-256 public key: 65 bytes, uncompressed, base64url",
      value: keys?.p256dh ?? null,
    });
  const auth = base64url(keys?.auth);
  if (!auth || auth.length !== 16)
    issues.push({
      field: "keys.auth",
      reason: "must be the subscription's 16-byte auth secret, base64url",
      value: keys?.auth ?? null,
    });
}

/** A device registration: a recipient, a push endpoint and keys that can encrypt, an optional label. */
export function assertValidDevice(
  draft: DeviceDraft,
  env: { allowHttp: boolean; httpSetting: string },
): { recipient: Recipient; endpoint: string; keys: PushKeys; label: string | null } {
  const issues: ValidationIssue[] = [];
  const recipient = checkRecipient(issues, "", draft);
  checkOutboundUrl(issues, "endpoint", draft.endpoint, {
    allowHttp: env.allowHttp,
    httpSetting: env.httpSetting,
    max: NOTIFICATION_LIMITS.endpointMax,
    what: "the push service URL of the subscription",
  });
  checkKeys(issues, draft.keys);
  const label = optionalText(issues, "label", draft.label, NOTIFICATION_LIMITS.labelMax);
  if (issues.length) throw DomainError.validation(issues);
  return {
    recipient: recipient as Recipient,
    endpoint: draft.endpoint,
    keys: { p256dh: draft.keys.p256dh, auth: draft.keys.auth },
    label,
  };
}
