import { createPractice, DomainError, type EligibilityGateway, type Principal } from "@openpractice/core";
import { MemoryStorage } from "@openpractice/testing";
import { beforeEach, describe, expect, it } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";

const admin: Principal = { organisationId: 1, userId: 101, name: "Admin", scopes: ["admin"], clinicIds: [], roles: [] };
const settings = (password?: string) => ({
  url: "https://clearinghouse.example.com/realtime",
  username: "lakeview",
  ...(password === undefined ? {} : { password }),
  submitterId: "LAKEVIEW01",
  receiverId: "CLEARHOUSE",
  providerNpi: "1234567893",
  providerName: "Lakeview Physical Therapy",
});

// The settings' rules over the in-memory store: a password sealed under another key is a clear refusal, not a
// crash; a save that leaves the password out never writes back one rotated meanwhile; a test's outcome lands only
// on the settings it tested.
describe("an organisation's clearinghouse settings (core)", () => {
  let storage: MemoryStorage;
  const seen: string[] = [];
  const gateway: EligibilityGateway = {
    async check(_organisationId, inquiry, connection) {
      seen.push(connection?.password ?? "(default)");
      return {
        request: "270",
        response: "271",
        result: null,
        rejections: [{ code: "75", reason: "not found", followUp: null }],
      };
    },
  };
  const practiceWith = (keys = testPracticeKeys()) => createPractice({ keys, storage, eligibilityGateway: gateway });

  beforeEach(async () => {
    storage = new MemoryStorage();
    seen.length = 0;
    await storage.repositories.organisations.ensure({ id: 1, name: "Org", plan: "free", now: new Date() });
  });

  it("refuses with ELIGIBILITY_NOT_CONFIGURED, naming the cure, when the instance's key changed", async () => {
    await practiceWith().clearinghouses.save(admin, settings("first-secret"));
    const other = practiceWith();
    const refusal = await other.clearinghouses.test(admin, "CMS").catch((e: unknown) => e);
    expect(refusal).toBeInstanceOf(DomainError);
    expect(refusal).toMatchObject({ code: "ELIGIBILITY_NOT_CONFIGURED" });
    expect((refusal as Error).message).toContain("set the password again");
    await other.clearinghouses.save(admin, settings("again"));
    expect((await other.clearinghouses.test(admin, "CMS")).ok).toBe(true);
    expect(seen).toEqual(["again"]);
  });

  it("keeps a rotated password when a save without one lands after it, and records a test on its own settings only", async () => {
    const practice = practiceWith();
    await practice.clearinghouses.save(admin, settings("first-secret"));
    // A save read before the rotation (it had no password to send) is written after it: the rotation stands.
    await storage.repositories.clearinghouseSettings.save(
      { ...(await storage.repositories.clearinghouseSettings.find(1))!, username: "renamed" },
      false,
    );
    await practice.clearinghouses.save(admin, settings("rotated"));
    await storage.repositories.clearinghouseSettings.save(
      { ...(await storage.repositories.clearinghouseSettings.find(1))!, sealedPassword: "stale" },
      false,
    );
    await practice.clearinghouses.test(admin, "CMS");
    expect(seen).toEqual(["rotated"]);
    const tested = await storage.repositories.clearinghouseSettings.find(1);
    expect(tested?.lastTestOutcome).toBe("ok");
    await storage.repositories.clearinghouseSettings.recordTest(1, new Date(0), new Date(), "timeout");
    expect((await storage.repositories.clearinghouseSettings.find(1))?.lastTestOutcome).toBe("ok");
  });
});
