import type { ClearinghouseSettings } from "./clearinghouse-settings.js";

/** Each organisation's clearinghouse set through the API: one row per organisation. */
export interface ClearinghouseSettingsRepository {
  find(organisationId: number): Promise<ClearinghouseSettings | undefined>;
  /**
   * Inserts or replaces the organisation's settings (two first saves at once: one row, the later values). Without
   * `passwordChanged` an existing row keeps its sealed password and its time, so a save that left the password out
   * never writes back one a concurrent rotation replaced.
   */
  save(settings: ClearinghouseSettings, passwordChanged: boolean): Promise<void>;
  /** Records a test's outcome on the settings it tested (the row's `updatedAt`); newer settings are left alone. */
  recordTest(organisationId: number, testedUpdatedAt: Date, at: Date, outcome: string): Promise<void>;
  /** Deletes them; false when there were none. */
  remove(organisationId: number): Promise<boolean>;
}
