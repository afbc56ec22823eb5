import { payerError } from "./payer-errors.js";
import { ensureOrganisation } from "../organisations/ensure-organisation.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError } from "../kernel/domain-error.js";
import { toPageWindow } from "../kernel/paging.js";
import { searchTerms } from "../kernel/text-match.js";
import type { Storage } from "../kernel/storage.js";
import type { PayerServiceRepositories } from "./payer-service-repositories.js";
import {
  assertValidPayer,
  PAYER_LIMITS,
  type Payer,
  type PayerDraft,
  type PayerSearch,
  type PayerType,
  payerIssues,
} from "./payer.js";

const notFound = (id: unknown) => payerError("PAYER_NOT_FOUND", "Payer not found", { payer_ref: id });

/** The payer registry and organisations' own payers: search, read, an admin's additions, the registry import. */
export class PayerService {
  constructor(private readonly deps: { storage: Storage<PayerServiceRepositories>; clock: Clock }) {}

  async search(
    principal: Principal,
    query: PayerSearch,
  ): Promise<{ payers: Payer[]; total: number; page: number; perPage: number }> {
    const { page, size, limit, offset } = toPageWindow(query.page, query.perPage, {
      defaultSize: PAYER_LIMITS.defaultPerPage,
      maxSize: PAYER_LIMITS.maxPerPage,
    });
    const found = await this.deps.storage.repositories.payers.search(principal.organisationId, {
      terms: searchTerms(query.search ?? ""),
      type: query.type,
      limit,
      offset,
    });
    return { ...found, page, perPage: size };
  }

  async get(principal: Principal, id: number): Promise<Payer> {
    const found = await this.deps.storage.repositories.payers.findById(principal.organisationId, id);
    if (!found) throw notFound(id);
    return found;
  }

  /** An organisation's own payer (one the registry lacks); a payer id the registry or the organisation has is refused. */
  async create(principal: Principal, draft: PayerDraft): Promise<Payer> {
    assertValidPayer(draft);
    const now = this.deps.clock.now();
    const organisationId = principal.organisationId;
    return this.deps.storage.transaction(async (tx) => {
      await ensureOrganisation(tx, organisationId, now);
      const result = await tx.payers.insert({
        organisationId,
        payerId: draft.payerId.toUpperCase(),
        name: draft.name.trim(),
        type: draft.type as PayerType,
        eligibility: draft.eligibility ?? false,
        medicarePartB: draft.medicarePartB ?? false,
        active: true,
        createdAt: now,
        updatedAt: now,
      });
      if (!result.created)
        throw payerError("DUPLICATE_PAYER", "A payer with this payer id exists (in the registry or the organisation)", {
          existing_payer_ref: result.existingId,
        });
      return result.payer;
    });
  }

  /**
   * The registry import (`openpractice import payers`): every row is checked first and each bad one named
   * (rows.<i>.<field>); then all are upserted by payer id in one transaction, or none.
   */
  /**
   * Upserts the registry by payer id after checking every row (a bad row: nothing written). With `batchSize` the
   * rows commit in transactions of that many, so other writers interleave with a long import; an import stopped
   * midway is completed by running it again (the upsert is idempotent). `onProgress` hears the rows written.
   */
  async importRegistry(
    rows: readonly PayerDraft[],
    options: { batchSize?: number | undefined; onProgress?: ((done: number, total: number) => void) | undefined } = {},
  ): Promise<{ created: number; updated: number }> {
    const issues = rows.flatMap((row, i) => payerIssues(row, `rows.${i}.`));
    const seen = new Map<string, number>();
    rows.forEach((row, i) => {
      const key = String(row.payerId).toUpperCase();
      if (seen.has(key))
        issues.push({
          field: `rows.${i}.payerId`,
          reason: `repeats row ${(seen.get(key) ?? 0) + 1}'s payer id`,
          value: row.payerId,
        });
      else seen.set(key, i);
    });
    if (issues.length) throw DomainError.validation(issues);
    const now = this.deps.clock.now();
    const records = rows.map((row) => ({
      payerId: row.payerId.toUpperCase(),
      name: row.name.trim(),
      type: row.type as PayerType,
      eligibility: row.eligibility ?? false,
      medicarePartB: row.medicarePartB ?? false,
      active: true,
      createdAt: now,
      updatedAt: now,
    }));
    const size = options.batchSize ?? Math.max(records.length, 1);
    const total = { created: 0, updated: 0 };
    for (let start = 0; start < records.length; start += size) {
      const done = await this.deps.storage.transaction((tx) =>
        tx.payers.upsertRegistry(records.slice(start, start + size)),
      );
      total.created += done.created;
      total.updated += done.updated;
      options.onProgress?.(Math.min(start + size, records.length), records.length);
    }
    return total;
  }
}
