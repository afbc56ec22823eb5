import type { Storage } from "@openpractice/core";
import { afterEach, beforeEach, describe } from "vitest";
import { testingDomains } from "../domains.js";
import { KIT_TIMEOUT_MS, type KitTimeoutOptions } from "./kit-timeouts.js";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-03-01T10:00:00.000Z");

/**
 * The storage port's contract as executable tests. Every adapter runs it
 * unchanged: `runStorageConformance("sqlite", factory)`. Test names carry the
 * engine name so a failure says which engine broke. Each domain's part is its
 * own describe block (domains.ts lists them); each test gets a fresh fixture
 * with organisations 1 and 2. The suite sets its own timeouts
 * (`options.timeoutMs`, default 60 s a test and a fixture hook).
 */
export function runStorageConformance(
  engine: string,
  createFixture: () => Promise<StorageFixture>,
  options: KitTimeoutOptions = {},
): void {
  const timeout = options.timeoutMs ?? KIT_TIMEOUT_MS;
  // Every test below inherits the suite's timeout; hooks take theirs one by one.
  describe(`storage conformance [${engine}]`, { timeout }, () => {
    let fx: StorageFixture;
    let s: Storage;
    beforeEach(async () => {
      fx = await createFixture();
      s = fx.storage;
      await s.repositories.organisations.ensure({ id: 1, name: "Org one", plan: "free", now: T0 });
      await s.repositories.organisations.ensure({ id: 2, name: "Org two", plan: "enterprise", now: T0 });
    }, timeout);
    afterEach(async () => {
      await fx.dispose();
    }, timeout);

    for (const domain of testingDomains) domain.conformance?.(engine, () => ({ s, fx }));
  });
}
