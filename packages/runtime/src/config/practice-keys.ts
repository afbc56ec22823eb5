import type { PracticeKeys } from "@openpractice/core";
import type { RuntimeConfig } from "./config.js";
import { resolveVapidKeys } from "./vapid-keys.js";
import { resolveWebhookKey } from "./webhook-key.js";

/** Where each key came from: "generated" keys were written to the data directory just now. */
export interface ResolvedRuntimeKeys {
  keys: PracticeKeys;
  webhookKeySource: "environment" | "file" | "generated";
  vapidSource: "environment" | "file" | "generated";
}

/**
 * The key material of the runtime's practice: from the environment, else from
 * the data directory, else generated there once (0600) and kept. The server and
 * every CLI command that opens a practice read the same keys.
 */
export function resolveRuntimeKeys(config: RuntimeConfig): ResolvedRuntimeKeys {
  const webhook = resolveWebhookKey(config.webhookSecretKey, config.dataDir);
  const vapid = resolveVapidKeys(config.vapidKeys, config.dataDir);
  return {
    keys: { webhookSecretKey: webhook.key, vapid: { ...vapid.keys, subject: config.vapidSubject } },
    webhookKeySource: webhook.source,
    vapidSource: vapid.source,
  };
}
