import type { ClearinghouseSettings } from "./clearinghouse-settings.js";

/** Each organisation's clearinghouse set through the API: one row per organisation. */
export interface ClearinghouseSettingsRepository {
  find(organisationId: number): Promise<ClearinghouseSettings | undefined>;
  /** Inserts or replaces the organisation's settings (two first saves at once: one row, the later values). */
  save(settings: ClearinghouseSettings): Promise<void>;
  /** Records a connection test's outcome; nothing when the settings are gone. */
  recordTest(organisationId: number, at: Date, outcome: string): Promise<void>;
  /** Deletes them; false when there were none. */
  remove(organisationId: number): Promise<boolean>;
}
