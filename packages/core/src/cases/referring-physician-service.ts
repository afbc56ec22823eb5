import { caseError } from "./case-errors.js";
import { ensureOrganisation } from "../organisations/ensure-organisation.js";
import type { Patch } from "../kernel/patch.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError } from "../kernel/domain-error.js";
import { searchTerms } from "../kernel/text-match.js";
import type { Storage } from "../kernel/storage.js";
import type { CaseServiceRepositories } from "./case-service-repositories.js";
import { toPageWindow } from "../kernel/paging.js";
import type { ReferringPhysician, ReferringPhysicianChanges, ReferringPhysicianDraft } from "./referring-physician.js";
import { assertValidReferringPhysician } from "./referring-physician-rules.js";

const notFound = (id: unknown) =>
  caseError("REFERRING_PHYSICIAN_NOT_FOUND", "Referring physician not found", { referring_physician_id: id });
const duplicate = (existingId: number) =>
  caseError("DUPLICATE_REFERRING_PHYSICIAN", "The organisation already has a referring physician with this NPI", {
    existing_referring_physician_id: existingId,
  });

/** The registry of referring physicians cases point into, per organisation; NPI unique per organisation. */
export class ReferringPhysicianService {
  constructor(private readonly deps: { storage: Storage<CaseServiceRepositories>; clock: Clock }) {}

  async create(principal: Principal, draft: ReferringPhysicianDraft): Promise<ReferringPhysician> {
    assertValidReferringPhysician(draft, true);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      await ensureOrganisation(tx, principal.organisationId, now);
      const result = await tx.referringPhysicians.insert({
        ...draft,
        firstName: draft.firstName.trim(),
        lastName: draft.lastName.trim(),
        organisationId: principal.organisationId,
        createdAt: now,
        updatedAt: now,
      });
      if (!result.created) throw duplicate(result.existingId);
      return result.physician;
    });
  }

  async get(principal: Principal, id: number): Promise<ReferringPhysician> {
    const found =
      Number.isSafeInteger(id) && id > 0
        ? await this.deps.storage.repositories.referringPhysicians.findById(principal.organisationId, id)
        : undefined;
    if (!found) throw notFound(id);
    return found;
  }

  /**
   * Partial update: omitted fields keep their values, null clears an optional one. With `requireAddress` (v2, spec
   * 7.5: "a referring physician created without an address cannot be updated until one is supplied") the physician
   * must have a whole address (address1, city, state, zip) once the change is applied.
   */
  async update(
    principal: Principal,
    id: number,
    changes: ReferringPhysicianChanges,
    options: { requireAddress?: boolean } = {},
  ): Promise<ReferringPhysician> {
    assertValidReferringPhysician(changes, false);
    return this.deps.storage.transaction(async (tx) => {
      const current = await tx.referringPhysicians.findById(principal.organisationId, id);
      if (!current) throw notFound(id);
      const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      const next = { ...current, ...defined, updatedAt: this.deps.clock.now() };
      if (options.requireAddress) {
        const missing = (["address1", "city", "state", "zip"] as const).filter((f) => next[f] == null);
        if (missing.length > 0)
          throw DomainError.validation(
            missing.map((field) => ({
              field,
              reason: "is required: a physician without a whole address cannot be updated until one is supplied",
            })),
          );
      }
      const result = await tx.referringPhysicians.update(next);
      if (!result.updated) throw duplicate(result.existingId);
      return next;
    });
  }

  /** By name or NPI: every word of `query` must occur in "first last npi" (folded). */
  async search(
    principal: Principal,
    query: Patch<{ q: string; page: number; size: number }>,
  ): Promise<{ physicians: ReferringPhysician[]; total: number; page: number; size: number }> {
    const { page, size, limit, offset } = toPageWindow(query.page, query.size);
    const found = await this.deps.storage.repositories.referringPhysicians.search(
      principal.organisationId,
      searchTerms(query.q ?? ""),
      limit,
      offset,
    );
    return { ...found, page, size };
  }
}
