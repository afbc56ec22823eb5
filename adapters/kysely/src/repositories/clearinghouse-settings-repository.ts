import type { ClearinghouseSettings, ClearinghouseSettingsRepository } from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import { insertIgnoringDuplicate } from "../insert-ignoring-duplicate.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import type { ClearinghouseSettingsTable } from "../tables/eligibility.js";

const toSettings = (r: Selectable<ClearinghouseSettingsTable>): ClearinghouseSettings => ({
  organisationId: Number(r.organisation_id),
  url: r.url,
  username: r.username,
  sealedPassword: r.sealed_password,
  submitterId: r.submitter_id,
  receiverId: r.receiver_id,
  providerNpi: r.provider_npi,
  providerName: r.provider_name,
  timeoutMs: r.timeout_ms === null ? null : Number(r.timeout_ms),
  caPem: r.ca_pem,
  usage: r.usage as "P" | "T",
  passwordSetAt: fromDbTime(r.password_set_at),
  lastTestedAt: r.last_tested_at === null ? null : fromDbTime(r.last_tested_at),
  lastTestOutcome: r.last_test_outcome,
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

export class KyselyClearinghouseSettingsRepository implements ClearinghouseSettingsRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async find(organisationId: number) {
    const row = await this.db
      .selectFrom("clearinghouse_settings")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .executeTakeFirst();
    return row ? toSettings(row) : undefined;
  }

  async save(s: ClearinghouseSettings, passwordChanged: boolean) {
    const password = { sealed_password: s.sealedPassword, password_set_at: toDbTime(s.passwordSetAt) };
    const values = {
      url: s.url,
      username: s.username,
      submitter_id: s.submitterId,
      receiver_id: s.receiverId,
      provider_npi: s.providerNpi,
      provider_name: s.providerName,
      timeout_ms: s.timeoutMs,
      ca_pem: s.caPem,
      usage: s.usage,
      last_tested_at: s.lastTestedAt ? toDbTime(s.lastTestedAt) : null,
      last_test_outcome: s.lastTestOutcome,
      updated_at: toDbTime(s.updatedAt),
    };
    // Insert-if-absent, then update: two first saves at once end with one row (the later values), never a key error.
    const inserted = await insertIgnoringDuplicate(
      this.db,
      this.profile,
      "clearinghouse_settings",
      { organisation_id: s.organisationId, created_at: toDbTime(s.createdAt), ...values, ...password },
      ["organisation_id"],
    );
    if (!inserted)
      await this.db
        .updateTable("clearinghouse_settings")
        .set(passwordChanged ? { ...values, ...password } : values)
        .where("organisation_id", "=", s.organisationId)
        .execute();
  }

  async recordTest(organisationId: number, testedUpdatedAt: Date, at: Date, outcome: string) {
    await this.db
      .updateTable("clearinghouse_settings")
      .set({ last_tested_at: toDbTime(at), last_test_outcome: outcome })
      .where("organisation_id", "=", organisationId)
      .where("updated_at", "=", toDbTime(testedUpdatedAt))
      .execute();
  }

  async remove(organisationId: number) {
    const result = await this.db
      .deleteFrom("clearinghouse_settings")
      .where("organisation_id", "=", organisationId)
      .executeTakeFirst();
    return Number(result.numDeletedRows) > 0;
  }
}
