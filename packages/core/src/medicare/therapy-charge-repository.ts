import type { TherapyCharge } from "./therapy-charge.js";
import type { TherapyBucket } from "./therapy-thresholds.js";

/** The amounts counted towards beneficiaries' therapy thresholds, by organisation, patient and calendar year. */
/** How the ledger's totals are read (TherapyChargeRepository.totals). */
export type LedgerRead = "latest" | "plain";

export interface TherapyChargeRepository {
  /** Appends charges (a completed note's lines, or one amount incurred elsewhere) in the caller's transaction; answers them with their ids. */
  insert(charges: ReadonlyArray<Omit<TherapyCharge, "id">>): Promise<TherapyCharge[]>;
  /**
   * The year's incurred cents per bucket: every charge, or with `through` those whose service date is on or before
   * it (what a visit of that date adds to). One indexed aggregate. `read`: `latest` (the default) reads the latest
   * committed rows also inside a transaction whose snapshot predates them, waiting for a writer's lock where the
   * engine reads so (MariaDB); `plain` is an ordinary read, for a caller outside any transaction (which sees the
   * latest committed rows anyway) that must not wait behind a completion.
   */
  totals(
    organisationId: number,
    patientId: number,
    year: number,
    through?: string | undefined,
    read?: LedgerRead,
  ): Promise<Record<TherapyBucket, number>>;
  /**
   * Serialises the ledger's writers of one patient: held until the caller's transaction ends (a row lock on the
   * patient), so two completions of the patient's notes read the year one after the other. Resolves also when the
   * patient is unknown.
   */
  lockPatient(organisationId: number, patientId: number): Promise<void>;
  /** The year's charges by service date, then in the order they were recorded. */
  list(organisationId: number, patientId: number, year: number): Promise<TherapyCharge[]>;
}
