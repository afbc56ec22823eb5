/** The realm every challenge names (RFC 6750 section 3). */
export const BEARER_REALM = "openpractice";

/** Characters RFC 6750 allows in error_description: printable ASCII without `"` and `\`. */
const describable = (text: string) => text.replace(/[^\x20\x21\x23-\x5b\x5d-\x7e]/g, "").slice(0, 300);

/**
 * The WWW-Authenticate value of a refused request (RFC 6750 section 3): the
 * realm alone when the request carried no bearer token, plus an error code
 * and its description when it carried a bad one (invalid_token, 401) or one
 * without the needed scope (insufficient_scope, 403).
 */
export function bearerChallenge(error?: { code: "invalid_token" | "insufficient_scope"; description: string }): string {
  const realm = `Bearer realm="${BEARER_REALM}"`;
  return error ? `${realm}, error="${error.code}", error_description="${describable(error.description)}"` : realm;
}

/** Whether the request presented a bearer token at all (another scheme, or none, is "no authentication information"). */
export const carriesBearerToken = (request: Request) =>
  /^Bearer\s+\S/i.test(request.headers.get("authorization") ?? "");
