import type { Payer, PayerType } from "./payer.js";

/** The payer registry (organisationId null) and organisations' own payers. */
export interface PayerRepository {
  /**
   * Inserts the registry payers whose payer id is new and replaces name, type and eligibility of the others, in
   * one statement batch of the caller's transaction; answers how many of each.
   */
  upsertRegistry(
    payers: ReadonlyArray<Omit<Payer, "id" | "organisationId">>,
  ): Promise<{ created: number; updated: number }>;
  /**
   * Inserts an organisation's payer; `created: false` with the holder's id when the organisation (or the registry)
   * already has this payer id. Of concurrent inserts of one payer id exactly one is created.
   */
  insert(payer: Omit<Payer, "id">): Promise<{ created: true; payer: Payer } | { created: false; existingId: number }>;
  /** A registry payer, or one of this organisation's. */
  findById(organisationId: number, id: number): Promise<Payer | undefined>;
  /** The registry's and the organisation's payers whose folded "name payer_id" holds every term, by name then id. */
  search(
    organisationId: number,
    filter: { terms: string[]; type?: PayerType | undefined; limit: number; offset: number },
  ): Promise<{ payers: Payer[]; total: number }>;
}
