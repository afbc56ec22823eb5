/**
 * One launch of the web app (docs/sso.md): the one-time code's hash and everything the token it is exchanged for
 * will carry, fixed at launch. Once redeemed it remembers the token's id (jti), so a replayed code revokes it.
 */
export interface SsoGrant {
  /** SHA-256 of the code, hex: the code itself is never stored. */
  codeHash: string;
  organisationId: number;
  /** The app user the web app's token acts for (the app token's user_id). */
  userId: number;
  userName: string | null;
  /** The mobile app's API client (claim client_id of its token), when its token came from one. */
  launchedByClientId: string | null;
  /** The web app's API client: its public client_id, which alone may redeem the code. */
  clientId: string;
  redirectUri: string;
  /** BASE64URL(SHA-256(code_verifier)): RFC 7636 S256. */
  codeChallenge: string;
  /** The scopes of the web app's token: the app token's, narrowed to the web client's at launch. */
  scopes: string[];
  /** The clinic restriction of the web app's token; empty: none. */
  clinicIds: number[];
  /** The launching token's expiry: the web app's token never outlives it. Null: unknown. */
  notAfter: Date | null;
  createdAt: Date;
  /** The code works until then: 60 seconds after launch. */
  expiresAt: Date;
  usedAt: Date | null;
  /** The id (jti) of the token the code was exchanged for. */
  tokenId: string | null;
  tokenExpiresAt: Date | null;
  /** Set when the code was presented again: the token issued from it is refused from then on. */
  revokedAt: Date | null;
}
