import type { LockStore } from "@openpractice/core";
import type { Kysely } from "kysely";
import { insertIgnoringDuplicate } from "../insert-ignoring-duplicate.js";
import { toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

/** Lease rows: portable across engines (no advisory-lock session to keep alive), and visible for operators. */
export class KyselyLockStore implements LockStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async tryAcquire(name: string, holder: string, now: Date, ttlMs: number): Promise<boolean> {
    const expires = toDbTime(new Date(now.getTime() + ttlMs));
    if (await insertIgnoringDuplicate(this.db, this.profile, "locks", { name, holder, expires_at: expires }, ["name"]))
      return true;
    // Taken: take it over only when expired, or extend it when we already hold it. The WHERE makes it atomic.
    const result = await this.db
      .updateTable("locks")
      .set({ holder, expires_at: expires })
      .where("name", "=", name)
      .where((eb) => eb.or([eb("expires_at", "<=", toDbTime(now)), eb("holder", "=", holder)]))
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async release(name: string, holder: string): Promise<void> {
    await this.db.deleteFrom("locks").where("name", "=", name).where("holder", "=", holder).execute();
  }
}
