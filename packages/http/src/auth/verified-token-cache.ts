import type { JWTPayload } from "jose";

/** Default number of verified tokens a process remembers. */
export const DEFAULT_VERIFIED_TOKEN_CACHE_SIZE = 1_000;

/**
 * How long a verified token is trusted without verifying its signature again, at most: a key an identity provider
 * withdraws from its JWKS stops being honoured within this time, as within jose's own key cache (10 minutes).
 */
export const VERIFIED_TOKEN_MAX_AGE_MS = 5 * 60_000;

/**
 * Tokens whose signature this process has verified, by their exact text. A client sends the same token with every
 * request until it expires, and checking an ES256 signature costs about 0.3 ms of CPU: a tenth of the serving
 * thread's busy time in the clinic day (docs/performance.md). An entry holds only what the signature check
 * established about those exact characters, and lives until the token expires (plus the clock tolerance, as jose
 * counts it) or `maxAgeMs`, whichever comes first; after that the token is verified in full again, so an expired
 * token gets jose's own answer. Failed verifications are never remembered. When full, the oldest entry goes.
 */
export class VerifiedTokenCache {
  private readonly entries = new Map<string, { payload: JWTPayload; untilMs: number }>();

  constructor(
    private readonly maxEntries: number,
    private readonly clockToleranceSeconds: number,
    private readonly maxAgeMs: number = VERIFIED_TOKEN_MAX_AGE_MS,
  ) {
    if (!Number.isInteger(maxEntries) || maxEntries < 0)
      throw new RangeError(`the verified token cache size must be a whole number, got ${maxEntries}`);
  }

  get size(): number {
    return this.entries.size;
  }

  /** The verified payload of `token`, or undefined when it is not remembered (or no longer). */
  get(token: string, nowMs: number = Date.now()): JWTPayload | undefined {
    const entry = this.entries.get(token);
    if (!entry) return undefined;
    if (nowMs < entry.untilMs) return entry.payload;
    this.entries.delete(token);
    return undefined;
  }

  /** Remembers a token whose signature and claims were just verified; `payload.exp` is required. */
  remember(token: string, payload: JWTPayload, nowMs: number = Date.now()): void {
    if (this.maxEntries === 0 || typeof payload.exp !== "number") return;
    // jose refuses a token once floor(now / 1000) >= exp + tolerance.
    const untilMs = Math.min(nowMs + this.maxAgeMs, (payload.exp + this.clockToleranceSeconds) * 1000);
    if (untilMs <= nowMs) return;
    if (!this.entries.has(token) && this.entries.size >= this.maxEntries) {
      const oldest = this.entries.keys().next().value as string;
      this.entries.delete(oldest);
    }
    this.entries.set(token, { payload, untilMs });
  }
}
