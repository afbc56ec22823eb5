import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import { booleanOption, integerOption, type OptionValues } from "../kernel/options.js";
import type { WebhookRepository } from "./webhook-repository.js";
import type { WebhookServiceRepositories } from "./webhook-service-repositories.js";
import { WebhookDeliveryService } from "./delivery-service.js";
import { WEBHOOK_ERROR_CODES } from "./webhook-errors.js";
import { WebhookService } from "./webhook-service.js";
import type { SecretCipher } from "./secret-cipher.js";
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

const options = {
  /**
   * How long a rotated-out webhook key keeps signing beside the new one when the rotation names no grace period
   * (seconds, at most 7 days). Default 0: spec 4.4 rule 5, the old key is invalid at once.
   */
  webhookRotationGraceSeconds: integerOption({ min: 0, max: 604_800, default: 0 }),
  /**
   * Accept http:// webhook notification URLs, for receivers on a development machine; default false (https only).
   * The outbound address policy is separate: startBackgroundWork's `webhookPolicy` lets deliveries reach loopback.
   */
  allowHttpWebhooks: booleanOption({ default: false, development: true }),
};

/** What the webhook services read of the practice's settings besides their options. */
export interface WebhookSettings extends OptionValues<typeof options> {
  /** Encrypts signature keys at rest. */
  readonly cipher: SecretCipher;
  /** The transport set at start, read at each send. */
  readonly outbound: { readonly webhookTransport?: WebhookTransport | undefined };
  /** How refusals name allowHttpWebhooks. */
  readonly settingNames: { readonly allowHttpWebhooks: string };
}

/**
 * Webhook subscriptions and their deliveries. The delivery job batches its
 * reads and commits, so the background runner (@openpractice/worker) supplies
 * it rather than this module.
 */
export const webhooksModule = defineCoreModule({
  key: "webhooks",
  repositories: owns<{ webhooks: WebhookRepository }>(),
  options,
  createServices: ({
    storage,
    clock,
    ids,
    settings,
    eventCatalogue,
  }: ModuleDependencies<WebhookServiceRepositories, WebhookSettings>) => ({
    webhooks: new WebhookService({
      storage,
      clock,
      cipher: settings.cipher,
      events: eventCatalogue,
      allowHttp: settings.allowHttpWebhooks,
      httpSetting: settings.settingNames.allowHttpWebhooks,
      rotationGraceSeconds: settings.webhookRotationGraceSeconds,
    }),
    webhookDeliveries: new WebhookDeliveryService({
      storage,
      clock,
      ids,
      cipher: settings.cipher,
      events: eventCatalogue,
      // Read at each send: background work may set the transport after the instance is built.
      transport: { post: (request) => (settings.outbound.webhookTransport ?? noWebhookTransport).post(request) },
    }),
  }),
  errorCodes: WEBHOOK_ERROR_CODES,
  events: {},
});
