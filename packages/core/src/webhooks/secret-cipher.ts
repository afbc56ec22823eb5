import { createCipheriv, createDecipheriv, randomBytes } from "node:crypto";

/** Encrypts secrets at rest (webhook signature keys). */
export interface SecretCipher {
  encrypt(plain: string): string;
  decrypt(sealed: string): string;
}

/**
 * AES-256-GCM with a random 96-bit nonce per secret. Sealed form:
 * `v1.<nonce hex>.<tag hex>.<ciphertext hex>`. A wrong key or a changed byte
 * fails decryption instead of returning garbage.
 */
export class AesGcmSecretCipher implements SecretCipher {
  private readonly key: Buffer;

  constructor(key: Buffer) {
    if (key.length !== 32) throw new Error("AesGcmSecretCipher needs a 32-byte key");
    this.key = Buffer.from(key);
  }

  encrypt(plain: string): string {
    const nonce = randomBytes(12);
    const cipher = createCipheriv("aes-256-gcm", this.key, nonce);
    const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
    return ["v1", nonce.toString("hex"), cipher.getAuthTag().toString("hex"), body.toString("hex")].join(".");
  }

  decrypt(sealed: string): string {
    const [version, nonce, tag, body] = sealed.split(".");
    if (version !== "v1" || !nonce || !tag || body === undefined) throw new Error("not a sealed secret");
    const decipher = createDecipheriv("aes-256-gcm", this.key, Buffer.from(nonce, "hex"));
    decipher.setAuthTag(Buffer.from(tag, "hex"));
    return Buffer.concat([decipher.update(Buffer.from(body, "hex")), decipher.final()]).toString("utf8");
  }
}

/** A signature key: 64 bytes from the CSPRNG as 128 hex characters (spec 2.6). */
export const newSignatureKey = (): string => randomBytes(64).toString("hex");
