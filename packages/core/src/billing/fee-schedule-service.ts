import { noteAuditedResource } from "../audit/audit-scope.js";
import { assertWithinCallerClinics } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError } from "../kernel/domain-error.js";
import { toPageWindow } from "../kernel/paging.js";
import type { Storage } from "../kernel/storage.js";
import type { BillingServiceRepositories } from "./billing-service-repositories.js";
import {
  amountToCents,
  FEE_SCHEDULE_LIMITS,
  type FeeScheduleEntry,
  feeScheduleIssues,
  type FeeScheduleRow,
} from "./fee-schedule.js";

/**
 * The organisation's fee schedule (docs/medicare-therapy.md#fee-schedule): an upload replaces the years it lists,
 * all of them or none (every line checked first, each bad one named with its line number).
 */
export class FeeScheduleService {
  constructor(private readonly deps: { storage: Storage<BillingServiceRepositories>; clock: Clock }) {}

  async import(principal: Principal, rows: readonly FeeScheduleRow[]): Promise<{ years: Record<string, number> }> {
    assertWithinCallerClinics(principal, [], "the fee schedule");
    const organisationId = principal.organisationId;
    const catalog = new Set(
      (await this.deps.storage.repositories.billingCodes.list(organisationId)).map((c) => c.code),
    );
    const issues = feeScheduleIssues(rows, catalog);
    if (issues.length > 0)
      throw DomainError.validation(issues, `The fee schedule has ${issues.length} problem(s); nothing was imported`);
    const now = this.deps.clock.now();
    const entries: FeeScheduleEntry[] = rows.map((r) => ({
      organisationId,
      year: Number((r.year as string).trim()),
      code: (r.code as string).trim().toUpperCase(),
      allowedCents: amountToCents((r.allowedAmount as string).trim()),
      updatedAt: now,
    }));
    const years = [...new Set(entries.map((e) => e.year))].sort();
    await this.deps.storage.transaction(async (tx) => {
      await tx.feeSchedules.replaceYears(organisationId, years, entries);
      noteAuditedResource(years.join(","));
    });
    return {
      years: Object.fromEntries(years.map((y) => [String(y), entries.filter((e) => e.year === y).length])),
    };
  }

  async list(
    principal: Principal,
    query: { year: number; page?: number | undefined; perPage?: number | undefined },
  ): Promise<{ entries: FeeScheduleEntry[]; total: number; page: number; perPage: number }> {
    const { page, size, limit, offset } = toPageWindow(query.page, query.perPage, {
      defaultSize: FEE_SCHEDULE_LIMITS.defaultPerPage,
      maxSize: FEE_SCHEDULE_LIMITS.maxPerPage,
    });
    const found = await this.deps.storage.repositories.feeSchedules.list(principal.organisationId, query.year, {
      limit,
      offset,
    });
    return { ...found, page, perPage: size };
  }
}
