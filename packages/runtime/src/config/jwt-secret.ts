import { randomBytes } from "node:crypto";
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

/**
 * The HS256 secret: OPENPRACTICE_JWT_SECRET when set, otherwise the one in
 * `<dataDir>/jwt-secret`, generated (256 random bits, owner-only file) on first
 * use. `wx` makes two processes starting together agree on one secret.
 */
export function resolveJwtSecret(configured: string | undefined, dataDir: string): { secret: string; source: "environment" | "file" | "generated" } {
  if (configured) return { secret: configured, source: "environment" };
  const file = join(dataDir, "jwt-secret");
  mkdirSync(dataDir, { recursive: true });
  try {
    writeFileSync(file, `${randomBytes(32).toString("hex")}\n`, { flag: "wx", mode: 0o600 });
    return { secret: readFileSync(file, "utf8").trim(), source: "generated" };
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
  }
  const secret = readFileSync(file, "utf8").trim();
  if (secret.length < 32) throw new Error(`${file} holds a secret shorter than 32 characters; delete it to generate a new one`);
  return { secret, source: "file" };
}
