import type { RateLimitStore } from "@openpractice/core";
import { sql, type Kysely } from "kysely";
import { toDbTime, type Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

export class KyselyRateLimitStore implements RateLimitStore {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async hit(key: string, windowStart: Date): Promise<number> {
    const values = { counter_key: key, window_start: toDbTime(windowStart), hits: 1 };
    if (this.profile.insertIgnoreStyle === "on-conflict" && this.profile.capabilities.returning) {
      // One atomic statement: the row lock of the upsert orders concurrent hits.
      const row = await this.db
        .insertInto("rate_limit_counters")
        .values(values)
        .onConflict((oc) => oc.columns(["counter_key", "window_start"]).doUpdateSet({ hits: sql`rate_limit_counters.hits + 1` }))
        .returning("hits")
        .executeTakeFirstOrThrow();
      return Number(row.hits);
    }
    // Engines without RETURNING: the upsert's row lock is held until commit, so the read in the same transaction sees this hit's count.
    return this.db.transaction().execute(async (trx) => {
      await trx.insertInto("rate_limit_counters").values(values).onDuplicateKeyUpdate({ hits: sql`hits + 1` }).execute();
      const row = await trx.selectFrom("rate_limit_counters").select("hits").where("counter_key", "=", key).where("window_start", "=", values.window_start).executeTakeFirstOrThrow();
      return Number(row.hits);
    });
  }

  async deleteWindowsBefore(before: Date): Promise<number> {
    const result = await this.db.deleteFrom("rate_limit_counters").where("window_start", "<", toDbTime(before)).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
