import type { Repositories, SsoGrant } from "@openpractice/core";
import { type MemoryState, moduleState } from "./memory-state.js";

/** Single sign-on's launch codes in memory, in the domain's own slice of the state. */
export function memorySso(s: () => MemoryState): Pick<Repositories, "ssoGrants"> {
  const grants = () => moduleState(s(), "ssoGrants", () => new Map<string, SsoGrant>());
  return {
    ssoGrants: {
      async insert(grant) {
        if (grants().has(grant.codeHash)) throw new Error("sso_grants: duplicate code hash");
        grants().set(grant.codeHash, structuredClone(grant));
      },
      findByCodeHash: async (codeHash) => structuredClone(grants().get(codeHash)),
      async redeem(codeHash, token, now) {
        const grant = grants().get(codeHash);
        if (!grant || grant.usedAt !== null || grant.expiresAt <= now) return false;
        Object.assign(grant, { usedAt: now, tokenId: token.id, tokenExpiresAt: token.expiresAt });
        return true;
      },
      async revoke(codeHash, now) {
        const grant = grants().get(codeHash);
        if (grant && grant.revokedAt === null) grant.revokedAt = now;
      },
      isTokenRevoked: async (tokenId) =>
        [...grants().values()].some((g) => g.tokenId === tokenId && g.revokedAt !== null),
      async purgeExpired(before) {
        let removed = 0;
        for (const [hash, grant] of grants())
          if (grant.expiresAt < before) {
            grants().delete(hash);
            removed++;
          }
        return removed;
      },
    },
  };
}
