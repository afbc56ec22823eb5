import type { RouteContext } from "../route.js";

/**
 * This server's OAuth issuer (RFC 8414): the configured public URL, else the server as the caller reached it
 * (origin and mount path). The metadata names it and single sign-on's launch URLs carry it as `iss` (RFC 9207).
 */
export const issuerUrlOf = (ctx: RouteContext, publicUrl: string | undefined): string =>
  publicUrl?.replace(/\/+$/, "") ?? `${ctx.url.origin}${ctx.basePath}`;
