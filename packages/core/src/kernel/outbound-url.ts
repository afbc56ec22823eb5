import type { ValidationIssue } from "./domain-error.js";

/**
 * A URL we will POST to on someone's behalf (a webhook's notification_url, a
 * push subscription's endpoint): http(s), at most `max` characters, https
 * unless `allowHttp` (development), and no credentials in it. Pushes one issue
 * naming `field` when it is not; a refused http URL names `httpSetting`, the
 * host's own name for what would accept it (an option, an environment variable).
 */
export function checkOutboundUrl(
  issues: ValidationIssue[],
  field: string,
  raw: unknown,
  o: { allowHttp: boolean; httpSetting: string; max: number; what: string },
): void {
  let url: URL | undefined;
  try {
    url = new URL(String(raw));
  } catch {
    url = undefined;
  }
  if (typeof raw !== "string" || !url || !["https:", "http:"].includes(url.protocol) || raw.length > o.max) {
    issues.push({ field, reason: `must be ${o.what} (http(s), at most ${o.max} characters)`, value: raw ?? null });
  } else if (url.protocol === "http:" && !o.allowHttp) {
    issues.push({
      field,
      reason: `must use https (http is accepted only with ${o.httpSetting})`,
      value: raw,
    });
  } else if (url.username || url.password) {
    issues.push({ field, reason: "must not carry credentials", value: url.origin });
  }
}
