import type { TestRuntime } from "./runtime-fixture.js";

/** POST /oauth/token with client_secret_basic (default) or client_secret_post; the raw response. */
export function tokenRequest(
  rt: Pick<TestRuntime, "url">,
  credentials: { clientId: string; secret: string },
  options: { scope?: string; method?: "basic" | "post"; grantType?: string; extra?: Record<string, string> } = {},
): Promise<Response> {
  const form = new URLSearchParams({ grant_type: options.grantType ?? "client_credentials", ...options.extra });
  if (options.scope !== undefined) form.set("scope", options.scope);
  const headers: Record<string, string> = { "content-type": "application/x-www-form-urlencoded" };
  if (options.method === "post") {
    form.set("client_id", credentials.clientId);
    form.set("client_secret", credentials.secret);
  } else {
    const encode = (s: string) => encodeURIComponent(s);
    headers.authorization = `Basic ${Buffer.from(`${encode(credentials.clientId)}:${encode(credentials.secret)}`).toString("base64")}`;
  }
  return fetch(`${rt.url}/oauth/token`, { method: "POST", headers, body: form.toString() });
}

/** An access token for the client (throws with the answer when refused). */
export async function oauthToken(
  rt: Pick<TestRuntime, "url">,
  credentials: { clientId: string; secret: string },
  scope?: string,
): Promise<string> {
  const res = await tokenRequest(rt, credentials, scope === undefined ? {} : { scope });
  const body = (await res.json()) as { access_token?: string };
  if (res.status !== 200 || !body.access_token) throw new Error(`token refused: ${res.status} ${JSON.stringify(body)}`);
  return body.access_token;
}
