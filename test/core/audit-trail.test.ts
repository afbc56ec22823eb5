import { createPractice, type Principal, type Storage } from "@openpractice/core";
import { MemoryStorage } from "@openpractice/testing";
import { describe, expect, it } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";

const principal: Principal = {
  organisationId: 1,
  userId: 101,
  name: "Rosa",
  clientId: "opc_test",
  scopes: ["write"],
  clinicIds: [],
  roles: [],
};
const entry = (action: string) => ({
  actorUserId: 101,
  actorName: "Rosa",
  clientId: "opc_test",
  action,
  resourceType: "staff",
  resourceId: null,
  requestId: "req-1",
  changedFields: ["email"],
});
const member = { firstName: "Ada", lastName: "Byron", email: "ada@clinic.test", roles: ["front_desk" as const] };

/** A storage whose audit appends fail: a write recorded with one must not survive it. */
function failingAudit(storage: Storage): Storage {
  return {
    capabilities: storage.capabilities,
    repositories: storage.repositories,
    ping: () => storage.ping(),
    close: () => storage.close(),
    transaction: (fn) =>
      storage.transaction((tx) =>
        fn({ ...tx, audit: { ...tx.audit, append: async () => Promise.reject(new Error("audit store full")) } }),
      ),
  };
}

describe("audit trail: a write and its entry commit together", () => {
  it("an audited write appends one entry naming the record its event names", async () => {
    const storage = new MemoryStorage();
    const practice = createPractice({ storage, keys: testPracticeKeys() });
    const created = await practice.audit.runAudited(1, entry("v2CreateStaff"), () =>
      practice.staff.create(principal, member),
    );
    const { events } = await practice.audit.list(1, {});
    expect(events).toEqual([
      expect.objectContaining({
        organisationId: 1,
        action: "v2CreateStaff",
        resourceType: "staff",
        resourceId: String(created.id),
        actorUserId: 101,
        clientId: "opc_test",
        requestId: "req-1",
        changedFields: ["email"],
      }),
    ]);
    // Only the operation's first transaction records it: a second one in the same operation adds nothing.
    await practice.audit.runAudited(1, entry("v2UpdateStaff"), async () => {
      await practice.staff.update(principal, created.id, { phone: "555" });
      await practice.staff.update(principal, created.id, { phone: "556" });
    });
    expect((await practice.audit.list(1, {})).total).toBe(2);
  });

  it("a failed write leaves no entry, and a failed entry undoes the write", async () => {
    const storage = new MemoryStorage();
    const practice = createPractice({ storage, keys: testPracticeKeys() });
    await practice.staff.create(principal, member);
    await expect(
      practice.audit.runAudited(1, entry("v2CreateStaff"), () => practice.staff.create(principal, member)),
    ).rejects.toMatchObject({ code: "DUPLICATE_STAFF_EMAIL" });
    expect((await practice.audit.list(1, {})).total).toBe(0);

    const broken = createPractice({ storage: failingAudit(storage), keys: testPracticeKeys() });
    await expect(
      broken.audit.runAudited(1, entry("v2CreateStaff"), () =>
        broken.staff.create(principal, { ...member, email: "other@clinic.test" }),
      ),
    ).rejects.toThrow("audit store full");
    const staff = await practice.staff.list(principal, { status: "all" });
    expect(staff.members.map((m) => m.email)).toEqual(["ada@clinic.test"]);
  });

  it("writes outside an audited operation record nothing; entries are per organisation", async () => {
    const storage = new MemoryStorage();
    const practice = createPractice({ storage, keys: testPracticeKeys() });
    await practice.staff.create(principal, member);
    await practice.audit.record(2, { ...entry("read:v2GetPatient"), resourceType: "patient", resourceId: "9" });
    expect((await practice.audit.list(1, {})).total).toBe(0);
    expect((await practice.audit.list(2, { resourceType: "patient", resourceId: "9" })).total).toBe(1);
    await expect(
      practice.audit.list(2, { from: new Date("2030-01-02"), to: new Date("2030-01-01") }),
    ).rejects.toMatchObject({ code: "INVALID_PARAMETER" });
  });
});
