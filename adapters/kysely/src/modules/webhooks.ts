import { defineKyselyModule } from "../kysely-module.js";
import { webhooksMigration } from "../migrations/006-webhooks.js";
import { webhookSigningMigration } from "../migrations/024-webhook-signing.js";
import { KyselyWebhookRepository } from "../repositories/webhook-repository.js";

/** Webhook subscriptions, deliveries and attempts. */
export const webhooksKyselyModule = defineKyselyModule({
  key: "webhooks",
  repositories: (db, profile) => ({
    webhooks: new KyselyWebhookRepository(db, profile),
  }),
  migrations: (profile) => ({
    "006-webhooks": webhooksMigration(profile),
    "024-webhook-signing": webhookSigningMigration(),
  }),
  tables: ["webhook_subscriptions", "webhook_deliveries", "webhook_attempts"],
});
