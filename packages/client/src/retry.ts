/** When to send a request again after `429 Too Many Requests` (or `503` with `Retry-After`). */
export interface RetryOptions {
  /** Attempts in all, the first included; default 3. */
  maxAttempts?: number;
  /**
   * The longest wait the client accepts; default 60 s. A `Retry-After` beyond it is not waited for: the 429 goes to
   * the caller, who knows better whether to wait that long.
   */
  maxDelayMs?: number;
  /** The wait when the answer has no usable `Retry-After`: this, doubled per attempt; default 1 s. */
  fallbackDelayMs?: number;
  /** Waits; a test or a host with its own timers may replace it. */
  sleep?: (ms: number) => Promise<void>;
}

/** Milliseconds a `Retry-After` value asks for (RFC 9110: seconds, or an HTTP date), or undefined when it says nothing usable. */
export function retryAfterMs(value: string | null, now = Date.now()): number | undefined {
  if (value === null) return undefined;
  const text = value.trim();
  if (/^\d+$/.test(text)) return Number(text) * 1000;
  const date = Date.parse(text);
  return Number.isNaN(date) ? undefined : Math.max(0, date - now);
}

const sleepFor = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * A fetch that sends a request again when the server answers 429 (the rate limit; OpenPractice says when its window
 * resets in `Retry-After`) or 503 with `Retry-After`, waiting as long as asked. The request is cloned before each
 * attempt, so a body (and an idempotency key in it) goes out unchanged every time.
 */
export function retryingFetch(
  send: (request: Request) => Promise<Response>,
  options: RetryOptions = {},
): (request: Request) => Promise<Response> {
  const maxAttempts = Math.max(1, options.maxAttempts ?? 3);
  const maxDelayMs = options.maxDelayMs ?? 60_000;
  const fallbackDelayMs = options.fallbackDelayMs ?? 1_000;
  const sleep = options.sleep ?? sleepFor;
  return async (request) => {
    for (let attempt = 1; ; attempt++) {
      const last = attempt >= maxAttempts;
      const response = await send(last ? request : request.clone());
      const retriable = response.status === 429 || (response.status === 503 && response.headers.has("retry-after"));
      if (!retriable || last) return response;
      const wait = retryAfterMs(response.headers.get("retry-after")) ?? fallbackDelayMs * 2 ** (attempt - 1);
      if (wait > maxDelayMs) return response;
      // The answer's body is not read: release it before waiting.
      await response.body?.cancel();
      await sleep(wait);
    }
  };
}
