import type { Storage } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-10-01T09:00:00.000Z");
const later = (seconds: number) => new Date(T0.getTime() + seconds * 1000);

/**
 * The client-assertion part of the access contract: a (client, jti) pair is recorded once (a second record is
 * refused, also from two writers at once), other clients' jtis are apart, and expired ones are purged.
 */
export function describeClientAssertionConformance(
  engine: string,
  current: () => { s: Storage; fx: StorageFixture },
): void {
  describe("client assertions", () => {
    let s: Storage;
    beforeEach(() => {
      s = current().s;
    });

    it(`[${engine}] records a jti once per client, also when two uses race, and purges the expired`, async () => {
      const r = s.repositories.clientAssertions;
      expect(await r.record("opc_a", "jti-1", later(60))).toBe(true);
      expect(await r.record("opc_a", "jti-1", later(60))).toBe(false);
      expect(await r.record("opc_b", "jti-1", later(60))).toBe(true);
      const race = await Promise.all([
        s.transaction((tx) => tx.clientAssertions.record("opc_a", "jti-2", later(10))),
        s.transaction((tx) => tx.clientAssertions.record("opc_a", "jti-2", later(10))),
      ]);
      expect(race.filter(Boolean)).toHaveLength(1);
      expect(await r.purgeExpired(later(30))).toBe(1);
      // Purged: the pair may be recorded again (its exp has passed, so the token endpoint refuses it first).
      expect(await r.record("opc_a", "jti-2", later(90))).toBe(true);
      expect(await r.record("opc_a", "jti-1", later(60))).toBe(false);
    });
  });
}
