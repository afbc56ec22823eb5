import type { Storage, Task, TaskComment, TaskListFilter } from "@openpractice/core";
import { beforeEach, describe, expect, it } from "vitest";
import type { StorageFixture } from "./storage-fixture.js";

const T0 = new Date("2026-10-01T09:00:00.000Z");
const at = (minutes: number) => new Date(T0.getTime() + minutes * 60_000);

/**
 * The tasks part of the storage contract: round trips, one task per rule key and organisation (also of concurrent
 * raises), the version compare-and-set (also of concurrent writers), the list's filters, sorts (a task without a due
 * time last ascending, first descending) and count, the reconcile's and the overdue sweep's reads, comments in order
 * and the settings.
 */
export function describeTaskConformance(engine: string, current: () => { s: Storage; fx: StorageFixture }): void {
  describe("tasks", () => {
    let s: Storage;
    const task = (over: Partial<Task> = {}): Omit<Task, "id"> => ({
      organisationId: 1,
      title: "Call the patient back",
      description: "About the referral",
      patientId: 11,
      subject: { type: "case", id: "7" },
      clinicId: 5,
      assignee: { type: "provider", id: 101 },
      assignmentSeq: 1,
      priority: "normal",
      dueAt: at(60),
      status: "open",
      origin: "person",
      rule: null,
      ruleKey: null,
      createdByUserId: 101,
      createdByClientId: "client-1",
      completedAt: null,
      completedByUserId: null,
      resolution: null,
      overdueAt: at(60),
      overdueNotifiedFor: null,
      version: 1,
      createdAt: T0,
      updatedAt: T0,
      ...over,
    });
    const raised = (subjectId: string, over: Partial<Task> = {}): Omit<Task, "id"> =>
      task({
        subject: { type: "soap_note", id: subjectId },
        origin: "system",
        rule: "soap_cosign",
        ruleKey: `soap_cosign:soap_note:${subjectId}`,
        createdByUserId: null,
        createdByClientId: null,
        ...over,
      });
    const comment = (taskId: number, over: Partial<TaskComment> = {}): Omit<TaskComment, "id"> => ({
      organisationId: 1,
      taskId,
      body: "Left a message",
      authorUserId: 101,
      authorClientId: null,
      authorName: "Dana Reyes",
      createdAt: T0,
      ...over,
    });
    const filter = (over: Partial<TaskListFilter> = {}): TaskListFilter => ({
      sort: "due_at",
      limit: 50,
      offset: 0,
      ...over,
    });

    beforeEach(async () => {
      s = current().s;
      for (const id of [1, 2])
        await s.repositories.organisations.ensure({ id, name: `Org ${id}`, plan: "free", now: T0 });
    });

    it(`[${engine}] round-trips a task with every field set and one with none, scoped by organisation`, async () => {
      const t = s.repositories.tasks;
      const full = await t.insert(
        task({
          status: "done",
          completedAt: at(30),
          completedByUserId: 102,
          resolution: "cosigned",
          overdueNotifiedFor: at(20),
          assignmentSeq: 3,
          priority: "urgent",
          updatedAt: at(30),
          version: 4,
        }),
      );
      const bare = await t.insert(
        task({
          description: null,
          patientId: null,
          subject: null,
          clinicId: null,
          assignee: null,
          assignmentSeq: 0,
          dueAt: null,
          overdueAt: null,
          createdByUserId: null,
          createdByClientId: null,
        }),
      );
      const context = await t.insert(
        task({ subject: { type: "soap_note", id: "3f1c2a9e-ctx" }, assignee: { type: "staff", id: 9 } }),
      );
      expect(full.id).not.toBe(bare.id);
      expect(await t.findById(1, full.id)).toEqual(full);
      expect(await t.findById(1, bare.id)).toEqual(bare);
      expect(await t.findById(1, context.id)).toEqual(context);
      expect(await t.findLatest(1, full.id)).toEqual(full);
      expect(await t.findById(2, full.id)).toBeUndefined();
      expect(await t.findLatest(2, full.id)).toBeUndefined();
      expect(await t.findById(1, 987_654)).toBeUndefined();
    });

    it(`[${engine}] raises one task per rule key and organisation; tasks without a key never clash`, async () => {
      const t = s.repositories.tasks;
      const first = await t.insertRaised(raised("ctx-1"));
      expect(first).toBeDefined();
      expect(await t.insertRaised(raised("ctx-1", { title: "Again" }))).toBeUndefined();
      expect(await t.findByRuleKey(1, "soap_cosign:soap_note:ctx-1")).toEqual(first);
      expect(await t.findByRuleKey(2, "soap_cosign:soap_note:ctx-1")).toBeUndefined();
      expect((await t.list(1, filter({ rule: "soap_cosign" }))).total).toBe(1);
      // The same key is free in another organisation and for another subject.
      expect(await t.insertRaised(raised("ctx-1", { organisationId: 2 }))).toBeDefined();
      expect(await t.insertRaised(raised("ctx-2"))).toBeDefined();
      // Many tasks without a key, raised or inserted.
      for (let i = 0; i < 3; i++) {
        expect(await t.insert(task())).toBeDefined();
        expect(await t.insertRaised(raised("none", { ruleKey: null }))).toBeDefined();
      }
      expect((await t.list(1, filter())).total).toBe(8);
      // A closed task gives its key up (ruleKey null): the rule may raise it again.
      expect(await t.updateIfVersion({ ...first!, status: "done", ruleKey: null, updatedAt: at(1) })).toBe(true);
      expect(await t.findByRuleKey(1, "soap_cosign:soap_note:ctx-1")).toBeUndefined();
      const again = await t.insertRaised(raised("ctx-1", { createdAt: at(2), updatedAt: at(2) }));
      expect(again).toBeDefined();
      expect(await t.findByRuleKey(1, "soap_cosign:soap_note:ctx-1")).toEqual(again);
    });

    it(`[${engine}] of 10 concurrent transactions raising one rule key exactly one inserts, and every transaction stays usable`, async () => {
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          s.transaction(async (tx) => {
            const inserted = await tx.tasks.insertRaised(raised("ctx-race", { title: `Raise ${i}` }));
            // A duplicate must not abort the transaction (PostgreSQL): the next statement still runs.
            await tx.tasks.saveSettings(1, { disabledRules: [] }, at(i));
            return inserted;
          }),
        ),
      );
      const landed = outcomes.filter((o) => o !== undefined);
      expect(landed).toHaveLength(1);
      expect(await s.repositories.tasks.findByRuleKey(1, "soap_cosign:soap_note:ctx-race")).toEqual(landed[0]);
      expect((await s.repositories.tasks.list(1, filter())).total).toBe(1);
    });

    it(`[${engine}] updates a task only at its version, writing its mutable fields and no others`, async () => {
      const t = s.repositories.tasks;
      const original = await t.insert(task());
      const changed: Task = {
        ...original,
        title: "Call the payer",
        description: null,
        patientId: 12,
        subject: null,
        clinicId: null,
        assignee: { type: "staff", id: 7 },
        assignmentSeq: 2,
        priority: "high",
        dueAt: null,
        status: "done",
        rule: "authorization_low",
        ruleKey: "authorization_low:authorization:4",
        completedAt: at(10),
        completedByUserId: 7,
        resolution: "condition_cleared",
        overdueAt: null,
        overdueNotifiedFor: at(60),
        updatedAt: at(10),
      };
      expect(await t.updateIfVersion(changed)).toBe(true);
      expect(await t.findById(1, original.id)).toEqual({ ...changed, version: 2 });
      expect(await t.findByRuleKey(1, "authorization_low:authorization:4")).toEqual({ ...changed, version: 2 });
      // A stale version writes nothing; nor does another organisation's id.
      expect(await t.updateIfVersion({ ...changed, title: "Stale" })).toBe(false);
      expect(await t.updateIfVersion({ ...changed, organisationId: 2, version: 2, title: "Elsewhere" })).toBe(false);
      expect((await t.findById(1, original.id))?.title).toBe("Call the payer");
      // Id, organisation, origin, creator and creation time are not the update's to change.
      expect(
        await t.updateIfVersion({
          ...changed,
          version: 2,
          origin: "system",
          createdByUserId: 999,
          createdByClientId: "other",
          createdAt: at(500),
          title: "Again",
          dueAt: at(90),
        }),
      ).toBe(true);
      expect(await t.findLatest(1, original.id)).toEqual({ ...changed, title: "Again", dueAt: at(90), version: 3 });
    });

    it(`[${engine}] of 10 concurrent transactions writing from one version exactly one succeeds, and every transaction stays usable`, async () => {
      const t = s.repositories.tasks;
      const original = await t.insert(task());
      const outcomes = await Promise.all(
        Array.from({ length: 10 }, (_, i) =>
          s.transaction(async (tx) => {
            const read = await tx.tasks.findById(1, original.id);
            const won = await tx.tasks.updateIfVersion({
              ...original,
              title: `Writer ${i}`,
              status: i % 2 ? "done" : "cancelled",
              updatedAt: at(i + 1),
            });
            await tx.tasks.insertComment(comment(original.id, { body: `Writer ${i}`, createdAt: at(i) }));
            return { i, won, readVersion: read?.version };
          }),
        ),
      );
      const winners = outcomes.filter((o) => o.won);
      expect(winners).toHaveLength(1);
      const latest = await t.findById(1, original.id);
      expect(latest?.version).toBe(2);
      expect(latest?.title).toBe(`Writer ${winners[0]!.i}`);
      expect((await t.listComments(1, original.id, { limit: 20, offset: 0 })).total).toBe(10);
    });

    describe("the list", () => {
      /** a…e in organisation 1 (a and c created at the same time), f in organisation 2. */
      const seed = async () => {
        const t = s.repositories.tasks;
        const a = await t.insert(
          task({ priority: "urgent", dueAt: at(60), clinicId: 5, createdAt: at(5), patientId: 11 }),
        );
        const b = await t.insert(
          task({
            status: "done",
            priority: "low",
            dueAt: null,
            clinicId: null,
            createdAt: at(1),
            patientId: 12,
            subject: { type: "appointment", id: "70" },
          }),
        );
        const c = await t.insert(
          raised("ctx-1", {
            assignee: null,
            assignmentSeq: 0,
            priority: "normal",
            dueAt: at(120),
            clinicId: 6,
            createdAt: at(5),
            patientId: 12,
          }),
        );
        const d = await t.insert(
          task({
            assignee: { type: "staff", id: 101 },
            status: "in_progress",
            priority: "high",
            dueAt: at(-60),
            clinicId: null,
            createdAt: at(3),
            patientId: 13,
            subject: null,
          }),
        );
        const e = await t.insert(
          task({
            assignee: { type: "provider", id: 102 },
            priority: "normal",
            dueAt: null,
            clinicId: 5,
            createdAt: at(0),
            patientId: 13,
            subject: { type: "case", id: "8" },
          }),
        );
        const f = await t.insert(task({ organisationId: 2 }));
        return { a: a.id, b: b.id, c: c.id, d: d.id, e: e.id, f: f.id };
      };
      const ids = async (over: Partial<TaskListFilter>) =>
        (await s.repositories.tasks.list(1, filter(over))).tasks.map((x) => x.id);

      it(`[${engine}] filters by assignee (or none), status, priority, patient, subject, origin, rule and clinics`, async () => {
        const { a, b, c, d, e } = await seed();
        expect(await ids({})).toEqual([d, a, c, b, e]);
        expect(await ids({ assignee: { type: "provider", id: 101 } })).toEqual([a, b]);
        expect(await ids({ assignee: { type: "staff", id: 101 } })).toEqual([d]);
        expect(await ids({ assignee: "none" })).toEqual([c]);
        expect(await ids({ assignee: { type: "provider", id: 101 }, statuses: ["open"] })).toEqual([a]);
        expect(await ids({ statuses: ["open"] })).toEqual([a, c, e]);
        expect(await ids({ statuses: ["open", "in_progress"] })).toEqual([d, a, c, e]);
        expect(await ids({ statuses: ["cancelled"] })).toEqual([]);
        expect(await ids({ priorities: ["urgent", "high"] })).toEqual([d, a]);
        expect(await ids({ priorities: ["normal"] })).toEqual([c, e]);
        expect(await ids({ patientId: 13 })).toEqual([d, e]);
        expect(await ids({ subjectType: "case" })).toEqual([a, e]);
        expect(await ids({ subjectType: "case", subjectId: "8" })).toEqual([e]);
        expect(await ids({ subjectType: "soap_note", subjectId: "ctx-1" })).toEqual([c]);
        expect(await ids({ subjectType: "soap_note", subjectId: "ctx-2" })).toEqual([]);
        expect(await ids({ origin: "system" })).toEqual([c]);
        expect(await ids({ origin: "person" })).toEqual([d, a, b, e]);
        expect(await ids({ rule: "soap_cosign" })).toEqual([c]);
        expect(await ids({ rule: "authorization_low" })).toEqual([]);
        // A restricted token's clinics: tasks of no clinic or of one of these.
        expect(await ids({ clinicIds: [5] })).toEqual([d, a, b, e]);
        expect(await ids({ clinicIds: [6, 99] })).toEqual([d, c, b]);
        expect(await ids({ clinicIds: [] })).toEqual([d, b]);
      });

      it(`[${engine}] filters by due time, strictly before and at or after; tasks without one match neither`, async () => {
        const { a, c, d } = await seed();
        expect(await ids({ dueBefore: at(120) })).toEqual([d, a]);
        expect(await ids({ dueBefore: at(121) })).toEqual([d, a, c]);
        expect(await ids({ dueBefore: new Date("2999-01-01T00:00:00.000Z") })).toEqual([d, a, c]);
        expect(await ids({ dueAfter: at(60) })).toEqual([a, c]);
        expect(await ids({ dueAfter: at(61) })).toEqual([c]);
        expect(await ids({ dueAfter: new Date("2000-01-01T00:00:00.000Z") })).toEqual([d, a, c]);
        expect(await ids({ dueAfter: at(-60), dueBefore: at(60) })).toEqual([d]);
        expect(await ids({ dueAfter: at(200) })).toEqual([]);
      });

      it(`[${engine}] sorts by due time (none last, first descending), priority and creation, ties by id`, async () => {
        const { a, b, c, d, e } = await seed();
        expect(await ids({ sort: "due_at" })).toEqual([d, a, c, b, e]);
        expect(await ids({ sort: "-due_at" })).toEqual([e, b, c, a, d]);
        expect(await ids({ sort: "priority" })).toEqual([a, d, c, e, b]);
        expect(await ids({ sort: "-priority" })).toEqual([b, e, c, d, a]);
        expect(await ids({ sort: "created_at" })).toEqual([e, b, d, a, c]);
        expect(await ids({ sort: "-created_at" })).toEqual([c, a, d, b, e]);
      });

      it(`[${engine}] pages with the count of every match`, async () => {
        const { a, c } = await seed();
        const page = await s.repositories.tasks.list(1, filter({ limit: 2, offset: 1 }));
        expect([page.tasks.map((x) => x.id), page.total]).toEqual([[a, c], 5]);
        const last = await s.repositories.tasks.list(1, filter({ limit: 2, offset: 4 }));
        expect(last.tasks).toHaveLength(1);
        expect(last.total).toBe(5);
        const beyond = await s.repositories.tasks.list(1, filter({ limit: 2, offset: 10 }));
        expect([beyond.tasks, beyond.total]).toEqual([[], 5]);
        const filtered = await s.repositories.tasks.list(1, filter({ statuses: ["open"], limit: 1 }));
        expect([filtered.tasks.map((x) => x.id), filtered.total]).toEqual([[a], 3]);
        const none = await s.repositories.tasks.list(1, filter({ assignee: { type: "provider", id: 55 } }));
        expect(none).toEqual({ tasks: [], total: 0 });
        expect((await s.repositories.tasks.list(2, filter())).total).toBe(1);
      });
    });

    it(`[${engine}] walks a rule's open and in-progress tasks by id, a page at a time`, async () => {
      const t = s.repositories.tasks;
      const one = await t.insert(raised("ctx-1"));
      await t.insert(raised("ctx-2", { status: "done", ruleKey: null }));
      const three = await t.insert(raised("ctx-3", { status: "in_progress" }));
      await t.insert(raised("ctx-4", { status: "cancelled", ruleKey: null }));
      await t.insert(
        raised("9", { rule: "authorization_low", ruleKey: "authorization_low:authorization:9", subject: null }),
      );
      await t.insert(raised("ctx-1", { organisationId: 2 }));
      const five = await t.insert(raised("ctx-5"));
      expect((await t.openOfRule(1, "soap_cosign", 0, 10)).map((x) => x.id)).toEqual([one.id, three.id, five.id]);
      expect((await t.openOfRule(1, "soap_cosign", 0, 2)).map((x) => x.id)).toEqual([one.id, three.id]);
      expect((await t.openOfRule(1, "soap_cosign", three.id, 2)).map((x) => x.id)).toEqual([five.id]);
      expect(await t.openOfRule(1, "soap_cosign", five.id, 2)).toEqual([]);
      expect(await t.openOfRule(1, "document_quarantined", 0, 10)).toEqual([]);
      expect((await t.openOfRule(1, "soap_cosign", 0, 1))[0]).toEqual(one);
    });

    it(`[${engine}] finds tasks owed an overdue notice in every organisation, oldest first`, async () => {
      const t = s.repositories.tasks;
      const late = await t.insert(task({ overdueAt: at(-30) }));
      const other = await t.insert(task({ organisationId: 2, overdueAt: at(-60) }));
      const tie = await t.insert(task({ organisationId: 2, overdueAt: at(-30) }));
      const now = await t.insert(task({ overdueAt: at(0) }));
      await t.insert(task({ overdueAt: at(1) }));
      await t.insert(task({ overdueAt: null, dueAt: at(-90) }));
      expect((await t.dueOverdue(at(0), 10)).map((x) => x.id)).toEqual([other.id, late.id, tie.id, now.id]);
      expect((await t.dueOverdue(at(0), 2)).map((x) => x.id)).toEqual([other.id, late.id]);
      expect((await t.dueOverdue(at(-61), 10)).map((x) => x.id)).toEqual([]);
      expect((await t.dueOverdue(at(-60), 10))[0]).toEqual(other);
    });

    it(`[${engine}] lists a task's comments oldest first with their count, scoped by organisation and task`, async () => {
      const t = s.repositories.tasks;
      const target = await t.insert(task());
      const another = await t.insert(task());
      const second = await t.insertComment(comment(target.id, { createdAt: at(2), body: "second" }));
      const first = await t.insertComment(
        comment(target.id, { createdAt: at(1), authorUserId: null, authorClientId: "client-9", authorName: null }),
      );
      const tied = await t.insertComment(comment(target.id, { createdAt: at(2), body: "third" }));
      await t.insertComment(comment(another.id));
      await t.insertComment(comment(target.id, { organisationId: 2 }));
      const all = await t.listComments(1, target.id, { limit: 10, offset: 0 });
      expect(all).toEqual({ comments: [first, second, tied], total: 3 });
      expect(await t.listComments(1, target.id, { limit: 1, offset: 1 })).toEqual({ comments: [second], total: 3 });
      expect((await t.listComments(1, another.id, { limit: 10, offset: 0 })).total).toBe(1);
      expect(await t.listComments(2, another.id, { limit: 10, offset: 0 })).toEqual({ comments: [], total: 0 });
    });

    it(`[${engine}] keeps each organisation's settings, created on first save`, async () => {
      const t = s.repositories.tasks;
      expect(await t.settingsOf(1)).toBeUndefined();
      await t.saveSettings(1, { disabledRules: ["soap_cosign", "document_quarantined"] }, at(1));
      expect(await t.settingsOf(1)).toEqual({ disabledRules: ["soap_cosign", "document_quarantined"] });
      expect(await t.settingsOf(2)).toBeUndefined();
      await t.saveSettings(1, { disabledRules: [] }, at(2));
      expect(await t.settingsOf(1)).toEqual({ disabledRules: [] });
      await t.saveSettings(1, { disabledRules: [] }, at(2));
      await t.saveSettings(2, { disabledRules: ["authorization_low"] }, at(3));
      expect(await t.settingsOf(2)).toEqual({ disabledRules: ["authorization_low"] });
      expect(await t.settingsOf(1)).toEqual({ disabledRules: [] });
    });

    it(`[${engine}] two first saves at once leave one row, never a key error`, async () => {
      const t = s.repositories.tasks;
      await s.repositories.organisations.ensure({ id: 3, name: "Org 3", plan: "free", now: T0 });
      await Promise.all([
        s.transaction((tx) => tx.tasks.saveSettings(3, { disabledRules: ["soap_cosign"] }, at(1))),
        s.transaction((tx) => tx.tasks.saveSettings(3, { disabledRules: ["authorization_low"] }, at(2))),
      ]);
      expect([["soap_cosign"], ["authorization_low"]]).toContainEqual((await t.settingsOf(3))?.disabledRules);
    });
  });
}
