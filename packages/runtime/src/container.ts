import "reflect-metadata";
import { PdfLibSummaryRenderer } from "@openpractice/pdf-lib";
import { AesGcmSecretCipher, createPractice, systemClock, type Clock, type Practice, type Storage } from "@openpractice/core";
import { createHttpHandler, createJwtAuthenticator, describeThrown, type Authenticator, type FetchHandler } from "@openpractice/http";
import { container as rootContainer, instanceCachingFactory, type DependencyContainer } from "tsyringe";
import type { RuntimeConfig } from "./config/config.js";
import { createWebhookTransport } from "./webhook-transport.js";
import { createPushTransport } from "./push-transport.js";
import type { VapidKeys } from "./config/vapid-keys.js";
import { swaggerUiAssets } from "./docs-assets.js";
import type { Logger } from "./logger.js";

/** Explicit injection tokens: no decorators, no reflected constructor types. */
export const TOKENS = Object.freeze({
  Config: Symbol("RuntimeConfig"),
  Logger: Symbol("Logger"),
  Clock: Symbol("Clock"),
  Storage: Symbol("Storage"),
  JwtSecret: Symbol("JwtSecret"),
  Practice: Symbol("Practice"),
  Authenticator: Symbol("Authenticator"),
  HttpHandler: Symbol("HttpHandler"),
});

export interface CompositionInput {
  config: RuntimeConfig;
  logger: Logger;
  storage: Storage;
  /** The HS256 secret (resolveHs256Secret); undefined: HS256 is off and only the JWKS URL's keys are accepted. */
  jwtSecret: string | undefined;
  /** AES-256 key for webhook signature keys at rest (resolveWebhookKey). */
  webhookKey: Buffer;
  /** The VAPID key pair push messages are signed with (resolveVapidKeys). */
  vapidKeys: VapidKeys;
  clock?: Clock;
}

/**
 * The composition root: a child container per runtime instance (never the
 * global one), so two runtimes in one process share nothing.
 */
export function composeContainer(input: CompositionInput): DependencyContainer {
  const c = rootContainer.createChildContainer();
  c.register(TOKENS.Config, { useValue: input.config });
  c.register(TOKENS.Logger, { useValue: input.logger });
  c.register(TOKENS.Clock, { useValue: input.clock ?? systemClock });
  c.register(TOKENS.Storage, { useValue: input.storage });
  if (input.jwtSecret !== undefined) c.register(TOKENS.JwtSecret, { useValue: input.jwtSecret });
  c.register(TOKENS.Practice, {
    useFactory: instanceCachingFactory<Practice>((d) =>
      createPractice({
        storage: d.resolve<Storage>(TOKENS.Storage),
        clock: d.resolve<Clock>(TOKENS.Clock),
        planLimits: d.resolve<RuntimeConfig>(TOKENS.Config).planLimits,
        searchCountLimit: d.resolve<RuntimeConfig>(TOKENS.Config).searchCountLimit,
        webhookCipher: new AesGcmSecretCipher(input.webhookKey),
        webhookTransport: createWebhookTransport({
          allowPrivate: d.resolve<RuntimeConfig>(TOKENS.Config).env === "development",
          allowedHosts: d.resolve<RuntimeConfig>(TOKENS.Config).webhookAllowedHosts,
        }),
        allowHttpWebhooks: d.resolve<RuntimeConfig>(TOKENS.Config).env === "development",
        summaryRenderer: new PdfLibSummaryRenderer(),
        pushTransport: createPushTransport({
          vapid: input.vapidKeys,
          subject: d.resolve<RuntimeConfig>(TOKENS.Config).vapidSubject,
          policy: { allowPrivate: d.resolve<RuntimeConfig>(TOKENS.Config).env === "development", allowedHosts: d.resolve<RuntimeConfig>(TOKENS.Config).pushAllowedHosts },
        }),
        allowHttpPushEndpoints: d.resolve<RuntimeConfig>(TOKENS.Config).env === "development",
      }),
    ),
  });
  c.register(TOKENS.Authenticator, {
    useFactory: instanceCachingFactory<Authenticator>((d) => {
      const config = d.resolve<RuntimeConfig>(TOKENS.Config);
      return createJwtAuthenticator({ secret: input.jwtSecret, jwksUrl: config.jwksUrl, maxLifetimeSeconds: config.jwtMaxLifetimeSeconds });
    }),
  });
  c.register(TOKENS.HttpHandler, {
    useFactory: instanceCachingFactory<FetchHandler>((d) => {
      const log = d.resolve<Logger>(TOKENS.Logger);
      return createHttpHandler({
        practice: d.resolve<Practice>(TOKENS.Practice),
        authenticator: d.resolve<Authenticator>(TOKENS.Authenticator),
        docsAssets: swaggerUiAssets(),
        onRequestComplete: (e) =>
          log.info({ request_id: e.requestId, method: e.method, route: e.route, status: e.status, duration_ms: e.durationMs, organisation_id: e.organisationId, error_code: e.errorCode }, "request"),
        // One JSON line, the stack inside it; describeThrown reads values that throw when touched.
        onUnexpectedError: (error, e) => log.error({ request_id: e.requestId, route: e.route, err: describeThrown(error) }, "unexpected error"),
      });
    }),
  });
  return c;
}
