import type { InsuranceCard } from "./coverage.js";

export type InsuranceCardRecord = Omit<InsuranceCard, "id">;

/**
 * Insurance cards (v1) and coverages (v2): one record. A deleted card stays stored (cases keep copies of it) and is
 * left out of every read.
 */
export interface InsuranceCardRepository {
  insert(record: InsuranceCardRecord): Promise<InsuranceCard>;
  /** The patient's cards, oldest first. */
  listByPatient(organisationId: number, patientId: number): Promise<InsuranceCard[]>;
  findById(organisationId: number, id: number): Promise<InsuranceCard | undefined>;
  /** Writes every field but id, organisation, patient and createdAt. */
  update(card: InsuranceCard): Promise<void>;
  /** Marks it deleted at `now`; false when there was no such (undeleted) card. */
  delete(organisationId: number, id: number, now: Date): Promise<boolean>;
}
