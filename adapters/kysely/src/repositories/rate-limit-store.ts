import type { RateLimitStore } from "@openpractice/core";
import { sql, type Compilable, type Kysely } from "kysely";
import { toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { executeInsertByShape } from "../statements-by-shape.js";

export class KyselyRateLimitStore implements RateLimitStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async hit(key: string, windowStart: Date, hits = 1): Promise<number> {
    if (!Number.isSafeInteger(hits) || hits < 1)
      throw new RangeError(`rate-limit hits must be a positive integer: ${hits}`);
    const values = { counter_key: key, window_start: toDbTime(windowStart), hits };
    const upsert = (db: Kysely<Database>) =>
      this.profile.incrementOnDuplicate(
        db.insertInto("rate_limit_counters").values(values),
        "rate_limit_counters",
        ["counter_key", "window_start"],
        "hits",
        hits,
      );
    // The increment binds `hits` after the row's values.
    const run = <R>(statement: string, build: () => Compilable) =>
      executeInsertByShape<R>(this.db, statement, "rate_limit_counters", [values], build, [hits]);
    if (this.profile.capabilities.returning) {
      // One atomic statement: the row lock of the upsert orders concurrent hits.
      const [row] = (await run<{ hits: number }>("increment returning hits", () => upsert(this.db).returning("hits")))
        .rows;
      if (!row) throw new Error("rate_limit_counters: the upsert returned no row");
      return Number(row.hits);
    }
    // Engines without RETURNING: the increment sets the statement's insert id to the new count
    // (onDuplicateKeyIncrement); one inserted row is a new counter at `hits`. One statement, as above.
    const result = await run("increment", () => upsert(this.db));
    return Number(result.numAffectedRows) === 1 ? hits : Number(result.insertId);
  }

  async release(key: string, windowStart: Date, hits: number): Promise<void> {
    if (!Number.isSafeInteger(hits) || hits < 1)
      throw new RangeError(`rate-limit hits must be a positive integer: ${hits}`);
    // One UPDATE: its row lock orders it with concurrent upserts of the counter on every engine.
    await this.db
      .updateTable("rate_limit_counters")
      .set({ hits: sql<number>`case when hits > ${hits} then hits - ${hits} else 0 end` })
      .where("counter_key", "=", key)
      .where("window_start", "=", toDbTime(windowStart))
      .execute();
  }

  async count(key: string, windowStart: Date): Promise<number> {
    const row = await this.db
      .selectFrom("rate_limit_counters")
      .select("hits")
      .where("counter_key", "=", key)
      .where("window_start", "=", toDbTime(windowStart))
      .executeTakeFirst();
    return Number(row?.hits ?? 0);
  }

  async deleteWindowsBefore(before: Date): Promise<number> {
    const result = await this.db
      .deleteFrom("rate_limit_counters")
      .where("window_start", "<", toDbTime(before))
      .executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
