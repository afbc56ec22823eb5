import { accessError } from "./access-errors.js";
import type { Clock } from "../kernel/clock.js";
import type { Storage } from "../kernel/storage.js";
import type { AccessServiceRepositories } from "./access-service-repositories.js";

const WINDOW_MS = 60_000;

/** Failed client authentications allowed per minute: per client id, and per caller address. */
export const CLIENT_AUTH_FAILURE_LIMITS = Object.freeze({ perClient: 10, perAddress: 30 });

/** A client authentication under way, counted as a failure in advance: settle says whether it stays one. */
export interface ClientAuthAttempt {
  /** `failed: false` takes the counted failure back (the client authenticated); `true` keeps it. */
  settle(failed: boolean): Promise<void>;
}

/**
 * Counts failed client authentications at the token endpoint in the shared rate-limit store (one-minute windows),
 * so every process of a deployment sees the same counts. An attempt is counted as a failure before its secret is
 * checked (reserve), and taken back when the secret was right (settle): so however many attempts arrive at once,
 * from however many processes, at most the limit of them are checked in a minute, and over the limit attempts
 * are refused without checking the secret. Guessing stops, and so does the scrypt work an attacker would cost us.
 */
export class ClientAuthThrottle {
  constructor(private readonly deps: { storage: Storage<AccessServiceRepositories>; clock: Clock }) {}

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

  /**
   * Counts the attempt as a failure of the client and of the address, or throws CLIENT_AUTH_THROTTLED (counting
   * nothing) when either has used up its failures this minute, settled or still being checked.
   */
  async reserve(clientId: string, address: string | undefined): Promise<ClientAuthAttempt> {
    const { start, retryAfterSeconds } = this.window();
    const limits = this.deps.storage.repositories.rateLimits;
    const throttled = (limit: number) =>
      accessError("CLIENT_AUTH_THROTTLED", "Too many failed client authentications; retry later", {
        limit,
        retry_after_seconds: retryAfterSeconds,
      });
    const keys = this.keys(clientId, address);
    // A read first: an attacker past the limit costs one read per attempt, not a write and its release.
    for (const { key, limit } of keys) if ((await limits.count(key, start)) >= limit) throw throttled(limit);
    const held: string[] = [];
    const releaseHeld = async () => {
      for (const key of held) await limits.release(key, start, 1);
    };
    for (const { key, limit } of keys) {
      const count = await limits.hit(key, start);
      held.push(key);
      if (count > limit) {
        await releaseHeld();
        throw throttled(limit);
      }
    }
    return { settle: async (failed) => (failed ? undefined : releaseHeld()) };
  }
}
