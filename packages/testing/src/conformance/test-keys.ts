import { randomBytes } from "node:crypto";
import type { PracticeKeys } from "@openpractice/core";
import { SignJWT } from "jose";

/** Key material for a practice under test: a fresh random webhook key, Web Push off. */
export function testPracticeKeys(): PracticeKeys {
  return { webhookSecretKey: randomBytes(32), vapid: null };
}

/** An HS256 token with the claims the HTTP API reads (docs/authentication.md), for suites that go through the handler. */
export function testAccessToken(
  secret: string,
  claims: { organisationId: number; userId: number; scope: string },
): Promise<string> {
  return new SignJWT({ organisation_id: claims.organisationId, user_id: claims.userId, scope: claims.scope })
    .setProtectedHeader({ alg: "HS256", typ: "JWT" })
    .setIssuedAt()
    .setSubject(String(claims.userId))
    .setExpirationTime("1h")
    .sign(new TextEncoder().encode(secret));
}
