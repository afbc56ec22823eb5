import { randomBytes } from "node:crypto";
import { readOrCreateSecretFile } from "./data-secret.js";

/**
 * The AES-256 key that encrypts webhook signature keys at rest:
 * OPENPRACTICE_WEBHOOK_SECRET_KEY (64 hex characters) when set, otherwise
 * `<dataDir>/webhook-secret-key`, generated on first use. Losing it makes the
 * stored signature keys unreadable (rotate every subscription's secret then).
 */
export function resolveWebhookKey(
  configured: string | undefined,
  dataDir: string,
): { key: Buffer; source: "environment" | "file" | "generated" } {
  if (configured) return { key: Buffer.from(configured, "hex"), source: "environment" };
  const { value, created, file } = readOrCreateSecretFile(dataDir, "webhook-secret-key", () =>
    randomBytes(32).toString("hex"),
  );
  if (!/^[0-9a-f]{64}$/i.test(value))
    throw new Error(
      `${file} must hold 64 hex characters; restore it from backup (deleting it makes stored webhook keys unreadable)`,
    );
  return { key: Buffer.from(value, "hex"), source: created ? "generated" : "file" };
}
