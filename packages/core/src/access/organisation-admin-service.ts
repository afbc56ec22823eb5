import { accessError } from "./access-errors.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { isTimeZone } from "../organisations/clinic-rules.js";
import { DEFAULT_DOCUMENTATION_SETTINGS } from "../organisations/documentation-settings.js";
import { PLANS, type Organisation, type Plan } from "../organisations/organisation.js";
import { toPageWindow } from "../kernel/paging.js";
import type { Patch } from "../kernel/patch.js";
import type { Storage } from "../kernel/storage.js";
import type { AccessServiceRepositories } from "./access-service-repositories.js";

export interface OrganisationDraft {
  name: string;
  plan?: Plan | undefined;
  /** IANA time zone; default UTC. */
  timeZone?: string | undefined;
}

export type OrganisationChanges = Patch<OrganisationDraft & { plan: Plan; active: boolean; auditReads: boolean }>;

export const ORGANISATION_LIMITS = Object.freeze({ nameMax: 200, defaultPerPage: 20, maxPerPage: 100 });

export const organisationNotFound = (id: unknown) =>
  accessError("ORGANISATION_NOT_FOUND", "Organisation not found", { organisation_id: id });

function organisationIssues(input: OrganisationChanges, creating: boolean): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (input.name !== undefined || creating) {
    const name = typeof input.name === "string" ? input.name.trim() : "";
    if (name === "" || name.length > ORGANISATION_LIMITS.nameMax)
      issues.push({
        field: "name",
        reason: `must be 1 to ${ORGANISATION_LIMITS.nameMax} characters`,
        value: input.name,
      });
  }
  if (input.plan !== undefined && !PLANS.includes(input.plan))
    issues.push({ field: "plan", reason: `must be one of ${PLANS.join(", ")}`, value: input.plan });
  if (input.timeZone !== undefined && !isTimeZone(input.timeZone))
    issues.push({
      field: "timeZone",
      reason: "must be an IANA time zone, e.g. America/Chicago",
      value: input.timeZone,
    });
  return issues;
}

/**
 * The platform operator's view of organisations (the `openpractice org` commands, /v2/organisations under
 * platform:admin): create, list, change, deactivate. Callers have checked the operator's authority.
 */
export class OrganisationAdminService {
  constructor(private readonly deps: { storage: Storage<AccessServiceRepositories>; clock: Clock }) {}

  /** A new organisation under the next free id, active, with default documentation settings. */
  async create(draft: OrganisationDraft): Promise<Organisation> {
    const issues = organisationIssues(draft, true);
    if (issues.length > 0) throw DomainError.validation(issues);
    const now = this.deps.clock.now();
    return this.deps.storage.repositories.organisations.insertOrganisation(newOrganisation(draft, now));
  }

  async get(id: number): Promise<Organisation> {
    const found = await this.deps.storage.repositories.organisations.findById(id);
    if (!found) throw organisationNotFound(id);
    return found;
  }

  async list(query: {
    status?: "active" | "deactivated" | "all" | undefined;
    page?: number | undefined;
    perPage?: number | undefined;
  }): Promise<{ organisations: Organisation[]; total: number; page: number; perPage: number }> {
    const { page, size, limit, offset } = toPageWindow(query.page, query.perPage, {
      defaultSize: ORGANISATION_LIMITS.defaultPerPage,
      maxSize: ORGANISATION_LIMITS.maxPerPage,
    });
    const status = query.status ?? "all";
    const found = await this.deps.storage.repositories.organisations.listOrganisations({
      deactivated: status === "all" ? undefined : status === "deactivated",
      limit,
      offset,
    });
    return { ...found, page, perPage: size };
  }

  /** Omitted fields keep their values; `active: false` deactivates (as deactivate), `active: true` reactivates. */
  async update(id: number, changes: OrganisationChanges): Promise<Organisation> {
    const issues = organisationIssues(changes, false);
    if (issues.length > 0) throw DomainError.validation(issues);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const current = await tx.organisations.findById(id);
      if (!current) throw organisationNotFound(id);
      const deactivatedAt =
        changes.active === undefined ? current.deactivatedAt : changes.active ? null : (current.deactivatedAt ?? now);
      const updated: Organisation = {
        ...current,
        name: changes.name?.trim() ?? current.name,
        plan: changes.plan ?? current.plan,
        timeZone: changes.timeZone ?? current.timeZone,
        auditReads: changes.auditReads ?? current.auditReads,
        deactivatedAt,
        updatedAt: now,
      };
      await tx.organisations.updateOrganisation(updated);
      return updated;
    });
  }

  /** Refuses every token of the organisation from now on (within the access cache's 30 seconds); repeating it changes nothing. */
  deactivate(id: number): Promise<Organisation> {
    return this.update(id, { active: false });
  }
}

/** A new organisation's record (id assigned by the store). */
export function newOrganisation(draft: OrganisationDraft, now: Date): Omit<Organisation, "id"> {
  return {
    name: draft.name.trim(),
    plan: draft.plan ?? "free",
    isActive: true,
    timeZone: draft.timeZone ?? "UTC",
    deactivatedAt: null,
    auditReads: false,
    documentation: { ...DEFAULT_DOCUMENTATION_SETTINGS },
    createdAt: now,
    updatedAt: now,
  };
}
