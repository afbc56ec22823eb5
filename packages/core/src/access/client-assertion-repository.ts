/**
 * The client assertions (RFC 7523 JWTs) the token endpoint accepted, by client and `jti`, until they expire: a second
 * use of one is refused (replay). Rows are removed once expired.
 */
export interface ClientAssertionRepository {
  /** Records the assertion; false when the client already used this `jti` (nothing written). */
  record(clientId: string, jti: string, expiresAt: Date): Promise<boolean>;
  /** Removes assertions that expired before `now`; answers how many. */
  purgeExpired(now: Date): Promise<number>;
}
