import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import type { Patch } from "../kernel/patch.js";
import { foldForMatch } from "../kernel/text-match.js";

export const PAYER_TYPES = [
  "commercial",
  "medicare",
  "medicare_advantage",
  "medicaid",
  "tricare",
  "workers_comp",
  "auto",
  "other",
] as const;
export type PayerType = (typeof PAYER_TYPES)[number];

export const PAYER_LIMITS = Object.freeze({ nameMax: 200, defaultPerPage: 20, maxPerPage: 100, maxSearchLength: 200 });

/**
 * An insurance payer: one of the registry every organisation sees (loaded with `openpractice import payers`), or
 * one an organisation added for itself. `payerId` is the id clearinghouses route claims and eligibility checks by.
 */
export interface Payer {
  id: number;
  /** null: the shared registry. */
  organisationId: number | null;
  payerId: string;
  name: string;
  type: PayerType;
  /** Whether the payer answers real-time eligibility checks (X12 270/271). */
  eligibility: boolean;
  /**
   * Medicare Part B (a MAC's Part B payer id): the outpatient therapy rules (docs/medicare-therapy.md) apply to the
   * coverages naming it. Only a `medicare` payer may carry it.
   */
  medicarePartB: boolean;
  active: boolean;
  createdAt: Date;
  updatedAt: Date;
}

/** A payer as a client or an import row sends it; the rules name every bad field. */
export interface PayerDraft {
  payerId: string;
  name: string;
  type: string;
  eligibility?: boolean | undefined;
  medicarePartB?: boolean | undefined;
}

export type PayerSearch = Patch<{ page: number; perPage: number; search: string; type: PayerType }>;

/** The folded text `search` matches: the name and the payer id. */
export const payerSearchText = (p: Pick<Payer, "name" | "payerId">) => foldForMatch(`${p.name} ${p.payerId}`);

/** The issues of one payer, with `prefix` before each field (an import names its row). */
export function payerIssues(p: PayerDraft, prefix = ""): ValidationIssue[] {
  const issues: ValidationIssue[] = [];
  if (typeof p.payerId !== "string" || !/^[A-Za-z0-9]{2,20}$/.test(p.payerId))
    issues.push({ field: `${prefix}payerId`, reason: "must be 2 to 20 letters or digits", value: p.payerId ?? null });
  if (typeof p.name !== "string" || p.name.trim() === "" || p.name.trim().length > PAYER_LIMITS.nameMax)
    issues.push({
      field: `${prefix}name`,
      reason: `must be 1 to ${PAYER_LIMITS.nameMax} characters`,
      value: p.name ?? null,
    });
  if (!(PAYER_TYPES as readonly string[]).includes(p.type))
    issues.push({ field: `${prefix}type`, reason: `must be one of ${PAYER_TYPES.join(", ")}`, value: p.type ?? null });
  else if (p.medicarePartB === true && p.type !== "medicare")
    issues.push({
      field: `${prefix}medicarePartB`,
      reason: "only a payer of type medicare can be Medicare Part B",
      value: true,
    });
  return issues;
}

export function assertValidPayer(p: PayerDraft): void {
  const issues = payerIssues(p);
  if (issues.length) throw DomainError.validation(issues);
}
