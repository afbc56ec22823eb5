/**
 * The response headers that keep patient data out of caches and the API's replies out of other sites' pages
 * (OWASP ASVS 4 V8.2.1 and V14.4, HIPAA 164.312(e)). Each can be changed or turned off (`false`) where the host
 * sets its own, helmet on Express say: the handler's value would otherwise replace the host's.
 */
export interface SecurityHeaderOptions {
  /**
   * Cache-Control of every reply of an authenticated route, its errors included, and of every reply that sets
   * none of its own (public files such as the reference page's keep theirs). Default `no-store`.
   */
  cacheControl?: string | false;
  /** X-Content-Type-Options: nosniff. Default true. */
  contentTypeOptions?: boolean;
  /** Referrer-Policy. Default `no-referrer`. */
  referrerPolicy?: string | false;
  /** X-Frame-Options (frame-ancestors in the CSPs says the same to current browsers). Default `DENY`. */
  frameOptions?: string | false;
  /** Content-Security-Policy of every reply but the reference page. Default API_CONTENT_SECURITY_POLICY. */
  contentSecurityPolicy?: string | false;
  /** Content-Security-Policy of the reference page (/docs). Default DOCS_CONTENT_SECURITY_POLICY. */
  docsContentSecurityPolicy?: string | false;
  /**
   * Strict-Transport-Security, sent only on requests that came over TLS: an https request URL, or
   * X-Forwarded-Proto: https when `trustForwardedProto` is set. Default `max-age=31536000` (a year).
   */
  strictTransportSecurity?: string | false;
  /**
   * Believe X-Forwarded-Proto (its first value) for HSTS: set it only when a proxy that terminates TLS always
   * sets the header, since any client can send it. Default false.
   */
  trustForwardedProto?: boolean;
}

/** JSON replies load nothing and are framed nowhere (OWASP REST Security Cheat Sheet). */
export const API_CONTENT_SECURITY_POLICY = "default-src 'none'; frame-ancestors 'none'";

/**
 * The reference page runs swagger-ui from this server's own files and fetches the OpenAPI document from it:
 * nothing from elsewhere, no inline script. Its stylesheet draws icons as data: images.
 */
export const DOCS_CONTENT_SECURITY_POLICY = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
  "frame-ancestors 'none'",
].join("; ");

/** Adds the security headers to a reply of the handler (its headers are the handler's own, so mutable). */
export function securityHeaderWriter(options: SecurityHeaderOptions | false | undefined) {
  if (options === false) return (_request: Request, _response: Response, _authenticated: boolean) => undefined;
  const cacheControl = options?.cacheControl ?? "no-store";
  const referrerPolicy = options?.referrerPolicy ?? "no-referrer";
  const frameOptions = options?.frameOptions ?? "DENY";
  const apiPolicy = options?.contentSecurityPolicy ?? API_CONTENT_SECURITY_POLICY;
  const docsPolicy = options?.docsContentSecurityPolicy ?? DOCS_CONTENT_SECURITY_POLICY;
  const hsts = options?.strictTransportSecurity ?? "max-age=31536000";
  const contentTypeOptions = options?.contentTypeOptions ?? true;
  const trustForwardedProto = options?.trustForwardedProto ?? false;

  const overTls = (request: Request) =>
    new URL(request.url).protocol === "https:" ||
    (trustForwardedProto && request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase() === "https");

  /** `authenticated`: the reply of a route that needs a token (whatever its status), or any error. */
  return (request: Request, response: Response, authenticated: boolean): void => {
    const headers = response.headers;
    if (cacheControl !== false) {
      const own = headers.get("cache-control");
      // A route's own no-store ("private, no-store" of the PDFs) stays; anything cacheable does not, on these.
      if (!own || (authenticated && !/(^|[\s,])no-store($|[\s,])/i.test(own)))
        headers.set("cache-control", cacheControl);
    }
    if (contentTypeOptions) headers.set("x-content-type-options", "nosniff");
    if (referrerPolicy !== false) headers.set("referrer-policy", referrerPolicy);
    if (frameOptions !== false) headers.set("x-frame-options", frameOptions);
    const html = /^text\/html\b/i.test(headers.get("content-type") ?? "");
    const policy = html ? docsPolicy : apiPolicy;
    if (policy !== false) headers.set("content-security-policy", policy);
    if (hsts !== false && overTls(request)) headers.set("strict-transport-security", hsts);
  };
}
