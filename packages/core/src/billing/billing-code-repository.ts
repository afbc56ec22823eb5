import type { BillingCode } from "./billing-code.js";

export interface BillingCodeRepository {
  /**
   * Inserts or replaces each code by (organisation, code); returns how many
   * were new. Concurrency: of concurrent uploads of one new code exactly one
   * counts it created, the others updated (the unique key decides; never an error).
   */
  upsert(
    organisationId: number,
    codes: Omit<BillingCode, "id" | "organisationId" | "createdAt">[],
    now: Date,
  ): Promise<{ created: number; updated: number }>;
  /** The organisation's catalog in code order. */
  list(organisationId: number): Promise<BillingCode[]>;
}
