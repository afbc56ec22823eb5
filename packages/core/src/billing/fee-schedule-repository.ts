import type { FeeScheduleEntry } from "./fee-schedule.js";

/** Organisations' fee schedules: allowed amounts by year and billing code. */
export interface FeeScheduleRepository {
  /** Replaces the organisation's schedule of each year in `years` with `entries` (one statement set, in the caller's transaction). */
  replaceYears(organisationId: number, years: readonly number[], entries: readonly FeeScheduleEntry[]): Promise<void>;
  /** One year's entries in code order, paged, with the count. */
  list(
    organisationId: number,
    year: number,
    page: { limit: number; offset: number },
  ): Promise<{ entries: FeeScheduleEntry[]; total: number }>;
  /** The allowed amounts (cents) of these codes in the year: codes without one are absent. */
  allowedCents(organisationId: number, year: number, codes: readonly string[]): Promise<Map<string, number>>;
}
