import { join } from "node:path";
import { createPractice, noteAuditedResource } from "@openpractice/core";
import { createSqliteStorage } from "@openpractice/sqlite";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testPracticeKeys } from "../support/practice-keys.js";
import { makeTempDir } from "../support/temp-dir.js";

// SQLite's group commit runs several callers' transaction bodies in one database transaction, from the context of
// the caller that started the flush. What a body notes for its audit entry (noteAuditedResource) must still reach
// its own caller's entry (audited-storage.ts runs each body in the scope captured when it asked).
describe("audit entries of transactions grouped into one SQLite commit", () => {
  const temp = makeTempDir();
  let practice: ReturnType<typeof createPractice>;
  beforeAll(async () => {
    const storage = await createSqliteStorage({ filename: join(temp.dir, "grouped.db") });
    practice = createPractice({ storage, keys: testPracticeKeys() });
    await practice.storage.repositories.organisations.ensure({ id: 1, name: "Org", plan: "free", now: new Date() });
  });
  afterAll(async () => {
    await practice.storage.close();
    temp.remove();
  });

  it("each entry names the record its own body noted, also when the bodies share a commit", async () => {
    const entry = (i: number) => ({
      actorUserId: 101,
      actorName: "Rosa",
      clientId: null,
      action: `grouped.${i}`,
      resourceType: "test",
      resourceId: null,
      requestId: `req-${i}`,
      changedFields: [],
    });
    // Started in one tick: the group commit carries them in one transaction.
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        practice.audit.runAudited(1, entry(i), () =>
          practice.storage.transaction(async () => {
            noteAuditedResource(`record-${i}`);
          }),
        ),
      ),
    );
    const { events } = await practice.audit.list(1, {});
    const named = Object.fromEntries(events.map((e) => [e.action, e.resourceId]));
    expect(named).toEqual(Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`grouped.${i}`, `record-${i}`])));
  });
});
