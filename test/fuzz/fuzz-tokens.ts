import { signAccessToken } from "@openpractice/runtime";
import { SignJWT } from "jose";
import type { FuzzTokens } from "./fuzz-cases.js";

const base64url = (value: object) => Buffer.from(JSON.stringify(value)).toString("base64url");

/** A valid token holding every scope the document names, and the kinds the API must refuse. */
export async function fuzzTokens(secret: string, scopes: string[], clinicIds: number[]): Promise<FuzzTokens> {
  const scope = scopes.join(" ");
  const now = Math.floor(Date.now() / 1000);
  return {
    valid: await signAccessToken(secret, {
      organisationId: 1,
      userId: 101,
      scope,
      clinicIds,
      roles: ["provider", "admin"],
    }),
    expired: await new SignJWT({ organisation_id: 1, user_id: 101, scope })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt(now - 7200)
      .setExpirationTime(now - 3600)
      .sign(new TextEncoder().encode(secret)),
    wrongSecret: await signAccessToken("another-secret-0123456789-abcdefghijklmnopqrstuvwxyz", {
      organisationId: 1,
      userId: 101,
      scope,
    }),
    unsigned: `${base64url({ alg: "none", typ: "JWT" })}.${base64url({ organisation_id: 1, user_id: 101, scope, exp: now + 3600 })}.`,
    noOrganisation: await new SignJWT({ user_id: 101, scope })
      .setProtectedHeader({ alg: "HS256" })
      .setIssuedAt()
      .setExpirationTime(now + 3600)
      .sign(new TextEncoder().encode(secret)),
    otherOrganisation: await signAccessToken(secret, { organisationId: 2, userId: 201, scope }),
    noScopes: await signAccessToken(secret, { organisationId: 1, userId: 101 }),
  };
}
