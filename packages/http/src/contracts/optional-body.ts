import type { RouteContext } from "../route.js";

/**
 * The body of a route whose body is optional (a bare POST takes the defaults): validated like any other when the
 * request carries one, `{}` when it carries none (no Content-Length, or 0, and no chunked body).
 */
export async function optionalBody<B>(
  ctx: RouteContext<B, unknown, string, unknown>,
): Promise<B | Record<string, never>> {
  const length = ctx.request.headers.get("content-length");
  const sent = (length !== null && length !== "0") || ctx.request.headers.has("transfer-encoding");
  return sent ? ctx.body() : {};
}
