import type { SsoGrant, Storage } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-10-01T09:00:00.000Z");
const at = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/**
 * The single sign-on part of the storage contract: a grant round-trips; a code is redeemed once (also by two
 * concurrent exchanges) and only before it expires; a revocation is found by the token's id; the purge removes
 * only grants expired before its bound.
 */
export function describeSsoConformance(engine: string, current: () => { s: Storage; fx: StorageFixture }): void {
  describe("sso grants", () => {
    let s: Storage;
    const grant = (codeHash: string, over: Partial<SsoGrant> = {}): SsoGrant => ({
      codeHash,
      organisationId: 1,
      userId: 101,
      userName: "Dana Reyes",
      launchedByClientId: "opc_app",
      clientId: "opc_web",
      redirectUri: "https://emr.example.com/sso/callback?tenant=4",
      codeChallenge: "E9Melhoa2OwvFrEMTJguCHaoeK1t8URWbuGJSstw-cM",
      scopes: ["patients:read", "notes:write"],
      clinicIds: [3, 5],
      notAfter: at(3600),
      createdAt: T0,
      expiresAt: at(60),
      usedAt: null,
      tokenId: null,
      tokenExpiresAt: null,
      revokedAt: null,
      ...over,
    });
    beforeEach(async () => {
      s = current().s;
      await s.repositories.organisations.ensure({ id: 1, name: "Org 1", plan: "free", now: T0 });
    });

    it(`[${engine}] round-trips a grant, redeems it once and finds its token revoked after a replay`, async () => {
      const g = s.repositories.ssoGrants;
      await g.insert(grant("a".repeat(64)));
      await g.insert(
        grant("b".repeat(64), { userName: "N".repeat(200), launchedByClientId: null, clinicIds: [], notAfter: null }),
      );
      expect(await g.findByCodeHash("a".repeat(64))).toEqual(grant("a".repeat(64)));
      expect(await g.findByCodeHash("b".repeat(64))).toMatchObject({
        userName: "N".repeat(200),
        clinicIds: [],
        notAfter: null,
      });
      expect(await g.findByCodeHash("c".repeat(64))).toBeUndefined();

      const token = { id: "7f1c7a52-0b0e-4d0c-9c55-2b8f0d1f0a11", expiresAt: at(960) };
      expect(await g.redeem("a".repeat(64), token, at(10))).toBe(true);
      expect(await g.redeem("a".repeat(64), { ...token, id: "other" }, at(11))).toBe(false);
      expect(await g.findByCodeHash("a".repeat(64))).toMatchObject({
        usedAt: at(10),
        tokenId: token.id,
        tokenExpiresAt: at(960),
        revokedAt: null,
      });
      expect(await g.isTokenRevoked(token.id)).toBe(false);
      await g.revoke("a".repeat(64), at(20));
      await g.revoke("a".repeat(64), at(30));
      expect((await g.findByCodeHash("a".repeat(64)))?.revokedAt).toEqual(at(20));
      expect(await g.isTokenRevoked(token.id)).toBe(true);
      expect(await g.isTokenRevoked("unknown")).toBe(false);
    });

    it(`[${engine}] refuses to redeem an expired code, and one of two concurrent redemptions`, async () => {
      const g = s.repositories.ssoGrants;
      await g.insert(grant("d".repeat(64)));
      expect(await g.redeem("d".repeat(64), { id: "late", expiresAt: at(999) }, at(60))).toBe(false);
      await g.insert(grant("e".repeat(64)));
      const results = await Promise.all(
        ["one", "two"].map((id) =>
          s.transaction((tx) => tx.ssoGrants.redeem("e".repeat(64), { id, expiresAt: at(900) }, at(5))),
        ),
      );
      expect(results.filter(Boolean)).toHaveLength(1);
      const winner = results[0] ? "one" : "two";
      expect((await g.findByCodeHash("e".repeat(64)))?.tokenId).toBe(winner);
    });

    it(`[${engine}] purges only grants whose code expired before the bound`, async () => {
      const g = s.repositories.ssoGrants;
      await g.insert(grant("f".repeat(64), { expiresAt: at(60) }));
      await g.insert(grant("0".repeat(64), { expiresAt: at(120) }));
      expect(await g.purgeExpired(at(60))).toBe(0);
      expect(await g.purgeExpired(at(61))).toBe(1);
      expect(await g.findByCodeHash("f".repeat(64))).toBeUndefined();
      expect(await g.findByCodeHash("0".repeat(64))).toBeDefined();
    });
  });
}
