import type { SsoGrant } from "./sso-grant.js";

/** Launch codes of single sign-on and the tokens issued from them (docs/sso.md). */
export interface SsoGrantRepository {
  insert(grant: SsoGrant): Promise<void>;
  findByCodeHash(codeHash: string): Promise<SsoGrant | undefined>;
  /**
   * Marks the code used and records the token issued for it, only if it was unused and unexpired (one statement:
   * of two concurrent exchanges exactly one wins). False: someone else redeemed it first, or it expired.
   */
  redeem(codeHash: string, token: { id: string; expiresAt: Date }, now: Date): Promise<boolean>;
  /** Marks the grant revoked (a replay of its code); an earlier revocation stays. */
  revoke(codeHash: string, now: Date): Promise<void>;
  /** Whether the token with this id was issued from a code since presented again. */
  isTokenRevoked(tokenId: string): Promise<boolean>;
  /** Deletes grants whose code expired before `before` (their tokens are expired too); returns how many. */
  purgeExpired(before: Date): Promise<number>;
}
