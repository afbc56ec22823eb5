import { defineCoreModule } from "../modules/core-module.js";
import { WebhookDeliveryService } from "./delivery-service.js";
import { WEBHOOK_ERROR_CODES } from "./webhook-errors.js";
import { WebhookService } from "./webhook-service.js";
import type { WebhookTransport } from "./webhook-delivery.js";

/** Without a configured transport every delivery is refused and recorded as failed, with this reason. */
const noWebhookTransport: WebhookTransport = Object.freeze({
  post: async () => ({
    statusCode: null,
    durationMs: 0,
    error: "no webhook transport configured",
    responseExcerpt: null,
  }),
});

/**
 * Webhook subscriptions and their deliveries. The delivery job batches its
 * reads and commits, so the background runner (@openpractice/worker) supplies
 * it rather than this module.
 */
export const webhooksModule = defineCoreModule({
  key: "webhooks",
  createServices: ({ storage, clock, ids, settings }) => ({
    webhooks: new WebhookService({
      storage,
      clock,
      cipher: settings.cipher,
      allowHttp: settings.allowHttpWebhooks,
      httpSetting: settings.settingNames.allowHttpWebhooks,
      rotationGraceSeconds: settings.webhookRotationGraceSeconds,
    }),
    webhookDeliveries: new WebhookDeliveryService({
      storage,
      clock,
      ids,
      cipher: settings.cipher,
      // Read at each send: background work may set the transport after the instance is built.
      transport: { post: (request) => (settings.outbound.webhookTransport ?? noWebhookTransport).post(request) },
    }),
  }),
  errorCodes: WEBHOOK_ERROR_CODES,
  events: {},
});
