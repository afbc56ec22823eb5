import { createECDH } from "node:crypto";
import webpush from "web-push";
import { readOrCreateSecretFile } from "./data-secret.js";

export interface VapidKeys {
  /** base64url, 65 bytes uncompressed P-256: what browsers subscribe with. */
  publicKey: string;
  /** base64url, 32 bytes: signs the VAPID JWTs. */
  privateKey: string;
}

/** True when the public key is the one the private key derives (a pair copied together, not from two generations). */
export function vapidPairMatches(keys: VapidKeys): boolean {
  try {
    const ecdh = createECDH("prime256v1");
    ecdh.setPrivateKey(Buffer.from(keys.privateKey, "base64url"));
    return ecdh.getPublicKey("base64url") === keys.publicKey;
  } catch {
    return false;
  }
}

/**
 * The VAPID key pair: OPENPRACTICE_VAPID_PUBLIC_KEY and _PRIVATE_KEY when set
 * (loadConfig checked they match), otherwise `<dataDir>/vapid-keys.json`,
 * generated on first start. Browsers subscribe to one public key: a new pair
 * invalidates every registered device, so keep the file with the database.
 */
export function resolveVapidKeys(
  configured: VapidKeys | undefined,
  dataDir: string,
): { keys: VapidKeys; source: "environment" | "file" | "generated" } {
  if (configured) return { keys: configured, source: "environment" };
  const { value, created, file } = readOrCreateSecretFile(dataDir, "vapid-keys.json", () =>
    JSON.stringify(webpush.generateVAPIDKeys()),
  );
  let keys: VapidKeys | undefined;
  try {
    const parsed = JSON.parse(value) as Partial<VapidKeys>;
    keys = { publicKey: String(parsed.publicKey), privateKey: String(parsed.privateKey) };
  } catch {
    keys = undefined;
  }
  if (!keys || !vapidPairMatches(keys))
    throw new Error(
      `${file} must hold {"publicKey","privateKey"} of one VAPID key pair; restore it from backup (a new pair makes every browser subscribe again)`,
    );
  return { keys, source: created ? "generated" : "file" };
}
