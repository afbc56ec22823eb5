import { ClamdScanner } from "@openpractice/clamav";
import { documentStoreOf } from "./document-store-of.js";
import { X12EligibilityGateway } from "@openpractice/x12";
import "reflect-metadata";
import {
  createPractice,
  systemClock,
  type Clock,
  type PracticeKeys,
  type Practice,
  type Storage,
} from "@openpractice/core";
import {
  createHttpHandler,
  createJwtAuthenticator,
  createTokenIssuer,
  type StoredSigningKey,
  type TokenIssuer,
  describeThrown,
  type Authenticator,
  type FetchHandler,
  type RequestLogEntry,
} from "@openpractice/http";
import { createOutboundFetch, createWebhookTransport } from "@openpractice/worker";
import { container as rootContainer, instanceCachingFactory, type DependencyContainer } from "tsyringe";
import type { RuntimeConfig } from "./config/config.js";
import { practiceOptionsFor } from "./config/practice-options.js";
import { swaggerUiAssets } from "./docs-assets.js";
import type { Logger } from "./logger.js";

/** Explicit injection tokens: no decorators, no reflected constructor types. */
export const TOKENS = Object.freeze({
  Config: Symbol("RuntimeConfig"),
  Logger: Symbol("Logger"),
  Clock: Symbol("Clock"),
  Storage: Symbol("Storage"),
  Practice: Symbol("Practice"),
  Authenticator: Symbol("Authenticator"),
  TokenIssuer: Symbol("TokenIssuer"),
  HttpHandler: Symbol("HttpHandler"),
});

export interface CompositionInput {
  config: RuntimeConfig;
  logger: Logger;
  storage: Storage;
  /** The HS256 secret (resolveHs256Secret); undefined: HS256 is off and only the JWKS URL's keys are accepted. */
  jwtSecret: string | undefined;
  /** The practice's key material (resolveRuntimeKeys). */
  keys: PracticeKeys;
  /** The ES256 keys of the token endpoint (resolveSigningKeys); the newest signs. */
  signingKeys: readonly StoredSigningKey[];
  clock?: Clock | undefined;
  /** Hears every finished request besides the log (the runtime's metrics). */
  onRequest?: ((entry: RequestLogEntry) => void) | undefined;
}

/**
 * The composition root: a child container per runtime instance (never the
 * global one), so two runtimes in one process share nothing. The
 * configuration is read once, here; each registration gets the values it
 * needs. Background work is not composed here: startRuntime starts it with
 * @openpractice/worker's startBackgroundWork, as an embedding host does.
 */
export function composeContainer(input: CompositionInput): DependencyContainer {
  const { config, logger } = input;
  const development = config.env === "development";
  const c = rootContainer.createChildContainer();
  c.register(TOKENS.Config, { useValue: config });
  c.register(TOKENS.Logger, { useValue: logger });
  c.register(TOKENS.Clock, { useValue: input.clock ?? systemClock });
  c.register(TOKENS.Storage, { useValue: input.storage });
  c.register(TOKENS.Practice, {
    useFactory: instanceCachingFactory<Practice>((d) =>
      createPractice({
        storage: d.resolve<Storage>(TOKENS.Storage),
        clock: d.resolve<Clock>(TOKENS.Clock),
        keys: input.keys,
        planLimits: config.planLimits,
        // The core modules' options from their variables; the development ones on with OPENPRACTICE_ENV=development,
        // and refusals naming that setting rather than the library option it turns into.
        ...practiceOptionsFor(config),
        // The environment's clearinghouses are the default; organisations may set their own through the API, which
        // reach only public addresses unless this is a development deployment (a local test clearinghouse).
        eligibilityGateway: new X12EligibilityGateway({
          clearinghouseFor: (id) => config.clearinghouses.get(id),
          allowPrivateAddresses: development,
        }),
        documentStore: documentStoreOf(config.documentStore),
        ...(config.clamd ? { malwareScanner: new ClamdScanner(config.clamd) } : {}),
        // Set before the server listens, so a /test delivery never meets an unset transport; background work keeps it.
        webhookTransport: createWebhookTransport({
          allowPrivate: development,
          allowedHosts: config.webhookAllowedHosts,
        }),
      }),
    ),
  });
  const tokenIssuer = createTokenIssuer({
    keys: input.signingKeys,
    lifetimeSeconds: config.accessTokenLifetimeSeconds,
    issuer: config.publicUrl,
    audience: config.jwtAudience[0],
  });
  c.register(TOKENS.TokenIssuer, { useValue: tokenIssuer });
  c.register(TOKENS.Authenticator, {
    useValue: createJwtAuthenticator({
      secret: input.jwtSecret,
      jwksUrl: config.jwksUrl,
      issuer: config.jwtIssuer,
      audience: config.jwtAudience,
      skipIssuerAudienceCheck: config.jwksSkipIssuerAudienceCheck,
      // Tokens of our own /oauth/token verify against our own keys.
      localJwks: tokenIssuer.jwks(),
      maxLifetimeSeconds: config.jwtMaxLifetimeSeconds,
    }),
  });
  c.register(TOKENS.HttpHandler, {
    useFactory: instanceCachingFactory<FetchHandler>((d) =>
      createHttpHandler({
        practice: d.resolve<Practice>(TOKENS.Practice),
        authenticator: d.resolve<Authenticator>(TOKENS.Authenticator),
        tokenIssuer: d.resolve<TokenIssuer>(TOKENS.TokenIssuer),
        publicUrl: config.publicUrl,
        // API clients' JWK Set URLs: public addresses only, as for webhooks, unless this is a development deployment.
        fetchJwks: createOutboundFetch({ allowPrivate: development, allowedHosts: config.webhookAllowedHosts }),
        docsAssets: swaggerUiAssets(),
        securityHeaders: { trustForwardedProto: config.trustForwardedProto },
        onRequestComplete: (e) => {
          input.onRequest?.(e);
          logger.info(
            {
              request_id: e.requestId,
              method: e.method,
              route: e.route,
              status: e.status,
              duration_ms: e.durationMs,
              organisation_id: e.organisationId,
              error_code: e.errorCode,
            },
            "request",
          );
        },
        // One JSON line, the stack inside it; describeThrown reads values that throw when touched.
        onUnexpectedError: (error, e) =>
          logger.error({ request_id: e.requestId, route: e.route, err: describeThrown(error) }, "unexpected error"),
      }),
    ),
  });
  return c;
}
