import type { Patch } from "../kernel/patch.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import type { Storage } from "../kernel/storage.js";
import type { OrganisationServiceRepositories } from "./organisation-service-repositories.js";
import { BILLING_UNIT_RULES, DEFAULT_BILLING_UNIT_RULE } from "./billing-unit-rule.js";
import type { DocumentationSettings } from "./organisation.js";

/** What an organisation that never changed its settings gets. */
export const DEFAULT_DOCUMENTATION_SETTINGS: DocumentationSettings = Object.freeze({
  billingUnitRule: DEFAULT_BILLING_UNIT_RULE,
  requireCosign: false,
  autoSubmitBilling: false,
  requirePlanSection: false,
});

/** The organisation's settings, or the defaults when it has no row yet. */
export async function documentationSettingsOf(
  r: OrganisationServiceRepositories,
  organisationId: number,
): Promise<DocumentationSettings> {
  return (await r.organisations.findById(organisationId))?.documentation ?? DEFAULT_DOCUMENTATION_SETTINGS;
}

/** Reads and changes how the caller's organisation documents and bills visits. */
export class DocumentationSettingsService {
  constructor(private readonly deps: { storage: Storage<OrganisationServiceRepositories>; clock: Clock }) {}

  get(principal: Principal): Promise<DocumentationSettings> {
    return documentationSettingsOf(this.deps.storage.repositories, principal.organisationId);
  }

  /** Omitted settings keep their values; every sent one is checked first and nothing changes when one is wrong. */
  async update(principal: Principal, changes: Patch<DocumentationSettings>): Promise<DocumentationSettings> {
    const issues: ValidationIssue[] = [];
    if (
      changes.billingUnitRule !== undefined &&
      !(BILLING_UNIT_RULES as readonly string[]).includes(changes.billingUnitRule)
    ) {
      issues.push({
        field: "billingUnitRule",
        reason: `must be one of ${BILLING_UNIT_RULES.join(", ")}`,
        value: changes.billingUnitRule,
      });
    }
    for (const key of ["requireCosign", "autoSubmitBilling", "requirePlanSection"] as const) {
      if (changes[key] !== undefined && typeof changes[key] !== "boolean")
        issues.push({ field: key, reason: "must be true or false", value: changes[key] });
    }
    if (issues.length) throw DomainError.validation(issues);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      await tx.organisations.ensure({
        id: principal.organisationId,
        name: principal.organisationName ?? `Organisation ${principal.organisationId}`,
        plan: "free",
        now,
      });
      const sent = Object.fromEntries(
        Object.entries(changes).filter(([, v]) => v !== undefined),
      ) as Partial<DocumentationSettings>;
      await tx.organisations.updateDocumentationSettings(principal.organisationId, sent, now);
      return documentationSettingsOf(tx, principal.organisationId);
    });
  }
}
