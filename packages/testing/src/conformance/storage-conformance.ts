import type { Storage } from "@openpractice/core";
import { afterEach, beforeEach, describe } from "vitest";
import { testingDomains } from "../domains.js";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-03-01T10:00:00.000Z");

/**
 * The storage port's contract as executable tests. Every adapter runs it
 * unchanged: `runStorageConformance("sqlite", factory)`. Test names carry the
 * engine name so a failure says which engine broke. Each domain's part is its
 * own describe block (domains.ts lists them); each test gets a fresh fixture
 * with organisations 1 and 2.
 */
export function runStorageConformance(engine: string, createFixture: () => Promise<StorageFixture>): void {
  describe(`storage conformance [${engine}]`, () => {
    let fx: StorageFixture;
    let s: Storage;
    beforeEach(async () => {
      fx = await createFixture();
      s = fx.storage;
      await s.repositories.organisations.ensure({ id: 1, name: "Org one", plan: "free", now: T0 });
      await s.repositories.organisations.ensure({ id: 2, name: "Org two", plan: "enterprise", now: T0 });
    });
    afterEach(async () => {
      await fx.dispose();
    });

    for (const domain of testingDomains) domain.conformance?.(engine, () => ({ s, fx }));
  });
}
