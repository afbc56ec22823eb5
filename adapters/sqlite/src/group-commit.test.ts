import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { domainEvent } from "@openpractice/core";
import BetterSqlite3 from "better-sqlite3";
import { afterEach, describe, expect, it } from "vitest";
import { createSqliteStorage } from "./sqlite-storage.js";

/** A better-sqlite3 handle that counts the statements it runs, by their SQL's first word(s). */
function countingDatabase(filename: string) {
  const database = new BetterSqlite3(filename);
  const runs: string[] = [];
  const counted = new Proxy(database, {
    get(target, property) {
      if (property === "prepare")
        return (source: string) => {
          const statement = target.prepare(source);
          return new Proxy(statement, {
            get(s, p) {
              const value = Reflect.get(s, p, s);
              if (typeof value !== "function") return value;
              if (p === "run" || p === "all" || p === "get" || p === "iterate")
                return (...args: unknown[]) => {
                  runs.push(source.trim().toLowerCase());
                  return value.apply(s, args);
                };
              return value.bind(s);
            },
          });
        };
      const value = Reflect.get(target, property, target);
      return typeof value === "function" ? value.bind(target) : value;
    },
  });
  const count = (prefix: string) => runs.filter((r) => r.startsWith(prefix)).length;
  return { database: counted, raw: database, count };
}

const event = (n: number) =>
  domainEvent("patient.created", { organisation_id: 1, patient_id: n }, new Date("2026-11-25T10:00:00Z"));

describe("SQLite group commit", () => {
  const dirs: string[] = [];
  const open = async () => {
    const dir = mkdtempSync(join(tmpdir(), "op-group-"));
    dirs.push(dir);
    const filename = join(dir, "g.db");
    const counting = countingDatabase(filename);
    const storage = await createSqliteStorage({ database: counting.database });
    // A second connection, as another process would read the file: it sees only committed rows.
    const reader = new BetterSqlite3(filename, { readonly: true });
    const committedEvents = () => (reader.prepare("select count(*) as n from outbox").get() as { n: number }).n;
    return { storage, counting, reader, committedEvents };
  };
  afterEach(() => {
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  it("runs concurrent transactions in one commit; a failing one rolls back alone; all answer after the commit", async () => {
    const { storage, counting, reader, committedEvents } = await open();
    const beginsBefore = counting.count("begin");
    const seenAtAnswer: number[] = [];
    const results = await Promise.allSettled(
      Array.from({ length: 20 }, (_, i) =>
        storage
          .transaction(async (tx) => {
            await tx.outbox.append(event(i));
            if (i === 7) throw new Error("member 7 refuses after its write");
            return i;
          })
          .then((value) => {
            seenAtAnswer.push(committedEvents());
            return value;
          }),
      ),
    );
    expect(results.map((r) => r.status)).toEqual(
      Array.from({ length: 20 }, (_, i) => (i === 7 ? "rejected" : "fulfilled")),
    );
    expect((results[7] as PromiseRejectedResult).reason.message).toBe("member 7 refuses after its write");
    expect(results.filter((r) => r.status === "fulfilled").map((r) => r.value)).toEqual(
      Array.from({ length: 20 }, (_, i) => i).filter((i) => i !== 7),
    );
    // One shared transaction for the twenty (they were asked for in the same turn).
    expect(counting.count("begin") - beginsBefore).toBe(1);
    // Every caller was answered after the commit: the other connection already saw all 19 events.
    expect(seenAtAnswer).toEqual(Array(19).fill(19));
    const ids = (reader.prepare("select data from outbox order by id").all() as Array<{ data: string }>).map(
      (r) => JSON.parse(r.data).patient_id,
    );
    expect(ids).toEqual(Array.from({ length: 20 }, (_, i) => i).filter((i) => i !== 7));
    reader.close();
    await storage.close();
    counting.raw.close();
  });

  it("transactions asked for while a group holds the connection form the next group", async () => {
    const { storage, counting, reader, committedEvents } = await open();
    const beginsBefore = counting.count("begin");
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const first = storage.transaction(async (tx) => {
      await tx.outbox.append(event(100));
      await gate;
    });
    await new Promise((r) => setImmediate(r));
    const later = Array.from({ length: 5 }, (_, i) => storage.transaction((tx) => tx.outbox.append(event(200 + i))));
    await new Promise((r) => setTimeout(r, 20));
    expect(committedEvents()).toBe(0);
    release();
    await Promise.all([first, ...later]);
    expect(committedEvents()).toBe(6);
    expect(counting.count("begin") - beginsBefore).toBe(2);
    reader.close();
    await storage.close();
    counting.raw.close();
  });

  it("rate-limit hits outside a transaction share commits and still count 1..N exactly once", async () => {
    const { storage, counting, reader } = await open();
    const beginsBefore = counting.count("begin");
    const window = new Date("2026-11-25T10:00:00Z");
    const counts = await Promise.all(
      Array.from({ length: 25 }, () => storage.repositories.rateLimits.hit("writes:org:1", window)),
    );
    expect([...counts].sort((a, b) => a - b)).toEqual(Array.from({ length: 25 }, (_, i) => i + 1));
    expect(counting.count("begin") - beginsBefore).toBe(1);
    expect(await storage.repositories.rateLimits.count("writes:org:1", window)).toBe(25);
    reader.close();
    await storage.close();
    counting.raw.close();
  });

  it("ensures an organisation with a statement until a commit has made it known, never after a rollback", async () => {
    const { storage, counting, reader } = await open();
    const org = (id: number) => ({ id, name: `Organisation ${id}`, plan: "free" as const, now: new Date() });
    const inserts = () => counting.count('insert into "organisations"');
    await expect(
      storage.transaction(async (tx) => {
        await tx.organisations.ensure(org(6));
        throw new Error("rolled back");
      }),
    ).rejects.toThrow("rolled back");
    expect(inserts()).toBe(1);
    await storage.transaction((tx) => tx.organisations.ensure(org(6)));
    expect(inserts()).toBe(2);
    expect(reader.prepare("select count(*) as n from organisations where id = 6").get()).toEqual({ n: 1 });
    // Known from now on: later ensures of organisation 6 send nothing.
    await storage.transaction((tx) => tx.organisations.ensure(org(6)));
    await storage.transaction((tx) => tx.organisations.ensure(org(6)));
    expect(inserts()).toBe(2);
    reader.close();
    await storage.close();
    counting.raw.close();
  });
});
