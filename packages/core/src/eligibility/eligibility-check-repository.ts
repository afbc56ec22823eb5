import type { EligibilityCheck, EligibilityCheckRecord } from "./eligibility.js";

/** Eligibility checks of coverages, kept whatever their outcome. */
export interface EligibilityCheckRepository {
  insert(record: EligibilityCheckRecord): Promise<number>;
  /** A coverage's checks, newest first. */
  listByCoverage(
    organisationId: number,
    coverageId: number,
    page: { limit: number; offset: number },
  ): Promise<{ checks: EligibilityCheck[]; total: number }>;
  /** The newest active or inactive check of each coverage among `coverageIds`. */
  latestAnswered(organisationId: number, coverageIds: readonly number[]): Promise<EligibilityCheck[]>;
}
