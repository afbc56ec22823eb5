import type { Clock } from "../clock.js";
import { DomainError } from "../errors/domain-error.js";
import type { Storage } from "../ports/storage.js";

const WINDOW_MS = 60_000;

/** Failed client authentications allowed per minute: per client id, and per caller address. */
export const CLIENT_AUTH_FAILURE_LIMITS = Object.freeze({ perClient: 10, perAddress: 30 });

/**
 * Counts failed client authentications at the token endpoint in the shared rate-limit store (one-minute windows),
 * so every process of a deployment sees the same counts. Over a limit, attempts are refused before the secret is
 * checked: guessing stops, and so does the scrypt work an attacker would cost us.
 */
export class ClientAuthThrottle {
  constructor(private readonly deps: { storage: Storage; clock: Clock }) {}

  private keys(clientId: string, address: string | undefined) {
    const keys: Array<{ key: string; limit: number }> = [
      { key: `oauth-fail:client:${clientId.slice(0, 100)}`, limit: CLIENT_AUTH_FAILURE_LIMITS.perClient },
    ];
    if (address) keys.push({ key: `oauth-fail:addr:${address}`, limit: CLIENT_AUTH_FAILURE_LIMITS.perAddress });
    return keys;
  }

  private window() {
    const now = this.deps.clock.now().getTime();
    const start = Math.floor(now / WINDOW_MS) * WINDOW_MS;
    return { start: new Date(start), retryAfterSeconds: Math.max(1, Math.ceil((start + WINDOW_MS - now) / 1000)) };
  }

  /** Throws CLIENT_AUTH_THROTTLED when the client or the address used up its failures this minute. */
  async assertAllowed(clientId: string, address: string | undefined): Promise<void> {
    const { start, retryAfterSeconds } = this.window();
    for (const { key, limit } of this.keys(clientId, address)) {
      if ((await this.deps.storage.repositories.rateLimits.count(key, start)) >= limit)
        throw new DomainError("CLIENT_AUTH_THROTTLED", "Too many failed client authentications; retry later", {
          limit,
          retry_after_seconds: retryAfterSeconds,
        });
    }
  }

  async recordFailure(clientId: string, address: string | undefined): Promise<void> {
    const { start } = this.window();
    for (const { key } of this.keys(clientId, address)) await this.deps.storage.repositories.rateLimits.hit(key, start);
  }
}
