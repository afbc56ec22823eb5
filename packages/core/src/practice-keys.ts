import { AesGcmSecretCipher } from "./webhooks/secret-cipher.js";

/** A VAPID key pair (RFC 8292) as web-push makes them: URL-safe base64, and the contact push services see. */
export interface VapidKeys {
  readonly publicKey: string;
  readonly privateKey: string;
  /** A mailto: or https: URL push services may contact about this sender. */
  readonly subject: string;
}

/**
 * The key material an instance cannot run without. There are no generated
 * defaults: a key made up at start would die with the process, and every
 * webhook key stored under it (or every browser subscribed to it) with it.
 */
export interface PracticeKeys {
  /**
   * 32 bytes that encrypt webhook signature keys at rest: a Buffer/Uint8Array,
   * or a string of 64 hex characters (`openssl rand -hex 32`, the form of the
   * runtime's OPENPRACTICE_WEBHOOK_SECRET_KEY) or of base64. Keep
   * it with the database's backups. Optional only when createPractice gets a webhookCipher.
   */
  readonly webhookSecretKey?: Uint8Array | string | undefined;
  /**
   * The Web Push key pair (generate one with `npx web-push generate-vapid-keys`),
   * or null to turn Web Push off (notifications still reach the in-app inbox).
   */
  readonly vapid: VapidKeys | null;
}

/** The configuration mistake of an embedder, reported when the instance is created, naming the option. */
export class PracticeConfigurationError extends Error {
  override readonly name = "PracticeConfigurationError";
}

/** The cipher of keys.webhookSecretKey; throws PracticeConfigurationError naming what is missing or wrong. */
export function webhookCipherFromKey(key: Uint8Array | string | undefined) {
  if (key === undefined || key === null || key === "") {
    throw new PracticeConfigurationError(
      "createPractice: keys.webhookSecretKey is required: 32 bytes, or 64 hex characters (`openssl rand -hex 32`), kept with your backups; it encrypts webhook signature keys at rest",
    );
  }
  const text = typeof key === "string" ? key.trim() : undefined;
  const bytes =
    text === undefined
      ? Buffer.from(key as Uint8Array)
      : Buffer.from(text, /^[0-9a-fA-F]{64}$/.test(text) ? "hex" : "base64");
  if (bytes.length !== 32) {
    throw new PracticeConfigurationError(
      `createPractice: keys.webhookSecretKey must be 32 bytes (64 hex characters, or base64, when a string); got ${bytes.length} bytes`,
    );
  }
  return new AesGcmSecretCipher(bytes);
}

/** Checks keys.vapid: a complete pair with a subject, or an explicit null. */
export function checkVapidKeys(vapid: VapidKeys | null | undefined): VapidKeys | null {
  if (vapid === undefined) {
    throw new PracticeConfigurationError(
      "createPractice: keys.vapid is required: a VAPID key pair { publicKey, privateKey, subject } (`npx web-push generate-vapid-keys`), or null to turn Web Push off",
    );
  }
  if (vapid === null) return null;
  const missing = (["publicKey", "privateKey", "subject"] as const).filter(
    (k) => typeof vapid[k] !== "string" || vapid[k].trim() === "",
  );
  if (missing.length > 0) {
    throw new PracticeConfigurationError(
      `createPractice: keys.vapid is missing ${missing.map((k) => `keys.vapid.${k}`).join(", ")}`,
    );
  }
  if (!/^(mailto:|https:\/\/)/.test(vapid.subject)) {
    throw new PracticeConfigurationError("createPractice: keys.vapid.subject must be a mailto: or https:// URL");
  }
  return Object.freeze({ ...vapid });
}
