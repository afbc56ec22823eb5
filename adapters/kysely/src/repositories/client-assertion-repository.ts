import type { ClientAssertionRepository } from "@openpractice/core";
import type { Kysely } from "kysely";
import { toDbTime } from "../db-time.js";
import { insertIgnoringDuplicate } from "../insert-ignoring-duplicate.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

/** Accepted client assertions: the primary key (client, jti) decides between two uses of one, however close. */
export class KyselyClientAssertionRepository implements ClientAssertionRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  record(clientId: string, jti: string, expiresAt: Date): Promise<boolean> {
    return insertIgnoringDuplicate(
      this.db,
      this.profile,
      "client_assertions",
      { client_id: clientId, jti, expires_at: toDbTime(expiresAt) },
      ["client_id", "jti"],
    );
  }

  async purgeExpired(now: Date): Promise<number> {
    const result = await this.db
      .deleteFrom("client_assertions")
      .where("expires_at", "<", toDbTime(now))
      .executeTakeFirst();
    return Number(result.numDeletedRows ?? 0n);
  }
}
