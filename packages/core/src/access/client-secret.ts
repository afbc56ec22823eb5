import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * scrypt parameters of new hashes: N = 2^15, r = 8, p = 3 (one of OWASP's recommended scrypt settings;
 * 32 MiB of memory per hash). They are written into each hash, so changing them here leaves old hashes readable.
 */
const COST = { N: 2 ** 15, r: 8, p: 3 } as const;
const KEY_BYTES = 32;
const SALT_BYTES = 16;

const derive = (secret: string, salt: Buffer, cost: { N: number; r: number; p: number }) =>
  new Promise<Buffer>((resolve, reject) => {
    const options: ScryptOptions = { ...cost, maxmem: 128 * cost.N * cost.r * 2 };
    scrypt(secret, salt, KEY_BYTES, options, (error, key) => (error ? reject(error) : resolve(key)));
  });

/** A new client id: "opc_" and 22 characters of 128 random bits (base64url: never ':' so Basic auth carries it). */
export const newClientId = () => `opc_${randomBytes(16).toString("base64url")}`;

/** A new client secret: "ops_" and 43 characters of 256 random bits. Shown once; only its hash is kept. */
export const newClientSecret = () => `ops_${randomBytes(32).toString("base64url")}`;

/** `scrypt$N$r$p$salt$hash` (base64url parts). */
export async function hashClientSecret(secret: string): Promise<string> {
  const salt = randomBytes(SALT_BYTES);
  const key = await derive(secret, salt, COST);
  return ["scrypt", COST.N, COST.r, COST.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

/** Whether `secret` matches the stored hash; a malformed hash matches nothing. Compared in constant time. */
export async function verifyClientSecret(secret: string, stored: string): Promise<boolean> {
  const [scheme, n, r, p, salt, key] = stored.split("$");
  if (scheme !== "scrypt" || !salt || !key) return false;
  const cost = { N: Number(n), r: Number(r), p: Number(p) };
  if (![cost.N, cost.r, cost.p].every(Number.isSafeInteger)) return false;
  const expected = Buffer.from(key, "base64url");
  const actual = await derive(secret, Buffer.from(salt, "base64url"), cost);
  return actual.length === expected.length && timingSafeEqual(actual, expected);
}
