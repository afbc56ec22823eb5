import { randomBytes } from "node:crypto";
import type { SecretCipher } from "../webhooks/secret-cipher.js";

/**
 * A store key for a new document: 128 random bits as base64url (22 characters). Never a name, a patient's id or
 * anything else a copied bucket would reveal.
 */
export const newDocumentObjectKey = (): string => randomBytes(16).toString("base64url");

/** A document's own data key: 256 random bits, used for that document only. */
export const newDocumentDataKey = (): Buffer => randomBytes(32);

const WRAP_VERSION = "pdk1";

/**
 * Wraps a data key with the instance's secret cipher (the cipher of webhook signature keys: keys.webhookSecretKey,
 * or the host's own webhookCipher, e.g. KMS-backed). The wrapped text names the organisation and the object, and
 * unwrapping checks both, so a wrapped key copied onto another row or organisation opens nothing.
 */
export function wrapDataKey(cipher: SecretCipher, organisationId: number, objectKey: string, dataKey: Buffer): string {
  return cipher.encrypt(`${WRAP_VERSION}:${organisationId}:${objectKey}:${dataKey.toString("base64")}`);
}

export function unwrapDataKey(
  cipher: SecretCipher,
  organisationId: number,
  objectKey: string,
  wrapped: string,
): Buffer {
  const [version, org, object, key] = cipher.decrypt(wrapped).split(":");
  if (version !== WRAP_VERSION || org !== String(organisationId) || object !== objectKey || !key)
    throw new Error("the wrapped data key belongs to another document");
  const bytes = Buffer.from(key, "base64");
  if (bytes.length !== 32) throw new Error("the wrapped data key is not 32 bytes");
  return bytes;
}
