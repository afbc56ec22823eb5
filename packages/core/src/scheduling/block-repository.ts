import type { ProviderBlock } from "./provider-block.js";

/** Providers' blocks, scoped by organisation; removed blocks stay (removedAt) and are left out of the lists. */
export interface BlockRepository {
  insert(block: Omit<ProviderBlock, "id">): Promise<ProviderBlock>;
  findById(organisationId: number, id: number): Promise<ProviderBlock | undefined>;
  /** The providers' blocks, not removed, whose span [startsAt, lastEndsAt) meets [from, to), by start then id. */
  listBetween(organisationId: number, providerIds: readonly number[], from: Date, to: Date): Promise<ProviderBlock[]>;
  /**
   * Writes the block's times, rule, reason, last end and exceptions with version + 1, only if the stored version is
   * still `block.version` and it is not removed; false otherwise (nothing written).
   */
  update(block: ProviderBlock): Promise<boolean>;
  /** Marks a block removed; false when it was not there (or removed already). */
  remove(organisationId: number, id: number, now: Date): Promise<boolean>;
}
