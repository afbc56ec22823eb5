import { Migrator, type Kysely, type Migration, type MigrationProvider } from "kysely";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { foundationMigration } from "./001-foundation.js";
import { jobsAndLocksMigration } from "./002-jobs-and-locks.js";
import { appointmentsMigration } from "./004-appointments.js";
import { casesMigration } from "./005-cases.js";
import { webhooksMigration } from "./006-webhooks.js";
import { soapNotesMigration } from "./007-soap-notes.js";
import { icdMigration } from "./008-icd.js";
import { billingCodesMigration } from "./009-billing-codes.js";
import { soapCompletionMigration } from "./010-soap-completion.js";
import { notificationsMigration } from "./011-notifications.js";
import { icdWordRankMigration } from "./012-icd-word-rank.js";
import { soapSummaryStatusMigration } from "./014-soap-summary-status.js";
import { planSectionSettingMigration } from "./015-plan-section-setting.js";

/** Migrations in code (not files on disk), so bundling and embedding never lose them. Names sort in apply order. */
export function sharedMigrations(profile: SqlDialectProfile): Record<string, Migration> {
  return {
    "001-foundation": foundationMigration(profile),
    "002-jobs-and-locks": jobsAndLocksMigration(profile),
    ...profile.extraMigrations,
    // Engine-only migrations (profile.extraMigrations) carry the engine's name after their number:
    // 003 is each engine's search index, 013-postgres the search statistics. Shared ones continue at 016.
    "004-appointments": appointmentsMigration(profile),
    "005-cases": casesMigration(profile),
    "006-webhooks": webhooksMigration(profile),
    "007-soap-notes": soapNotesMigration(profile),
    "008-icd": icdMigration(),
    "009-billing-codes": billingCodesMigration(profile),
    "010-soap-completion": soapCompletionMigration(profile),
    "011-notifications": notificationsMigration(profile),
    "012-icd-word-rank": icdWordRankMigration(),
    "014-soap-summary-status": soapSummaryStatusMigration(),
    "015-plan-section-setting": planSectionSettingMigration(),
  };
}

/** Applies every pending migration; throws with the failing migration's name. Safe to run from several processes: Kysely takes a lock table. */
export async function migrateToLatest(db: Kysely<any>, profile: SqlDialectProfile): Promise<string[]> {
  const provider: MigrationProvider = { getMigrations: async () => sharedMigrations(profile) };
  // Parallel branches reserve migration numbers (010 and 011 were written side by side), so a
  // database may have applied a later number before an earlier one lands: apply it then.
  const migrator = new Migrator({ db, provider, allowUnorderedMigrations: true });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === "Error");
  if (error) {
    throw new Error(`Migration ${failed?.migrationName ?? "(unknown)"} failed: ${error instanceof Error ? error.message : String(error)}`, { cause: error });
  }
  return (results ?? []).filter((r) => r.status === "Success").map((r) => r.migrationName);
}
