import type { ValidationIssue } from "../kernel/domain-error.js";

export const FEE_SCHEDULE_LIMITS = Object.freeze({
  maxRows: 20_000,
  yearMin: 2000,
  yearMax: 2100,
  /** $100,000.00: no therapy code is allowed more; a larger figure is a typo. */
  amountMaxCents: 10_000_000,
  defaultPerPage: 100,
  maxPerPage: 1000,
});

/**
 * What a payer allows for one billing code in one calendar year, from the organisation's fee schedule
 * (docs/medicare-therapy.md): the amounts the therapy thresholds add up. Cents, to add without rounding.
 */
export interface FeeScheduleEntry {
  organisationId: number;
  year: number;
  code: string;
  allowedCents: number;
  updatedAt: Date;
}

/** One line of an uploaded schedule as read from the CSV, with its line number in the file. */
export interface FeeScheduleRow {
  line: number;
  year?: string | undefined;
  code?: string | undefined;
  allowedAmount?: string | undefined;
}

const YEAR = /^\d{4}$/;
const AMOUNT = /^\d{1,7}(\.\d{1,2})?$/;

/** "12.5" → 1250 cents (the text already checked against AMOUNT). */
export const amountToCents = (text: string): number => {
  const [whole = "0", fraction = ""] = text.split(".");
  return Number(whole) * 100 + Number(fraction.padEnd(2, "0"));
};

/**
 * Every problem of an upload, each naming its line (`lines.<n>.<column>`): a missing or impossible year, a code
 * not in the organisation's billing catalog, an amount that is missing, negative, not a decimal of at most two
 * places, or too large, and a year and code listed twice.
 */
export function feeScheduleIssues(rows: readonly FeeScheduleRow[], catalog: ReadonlySet<string>): ValidationIssue[] {
  const L = FEE_SCHEDULE_LIMITS;
  const issues: ValidationIssue[] = [];
  if (rows.length === 0)
    issues.push({
      field: "lines",
      reason: "the file lists no fee (header year,code,allowed_amount, then one line per code)",
    });
  if (rows.length > L.maxRows) issues.push({ field: "lines", reason: `may list at most ${L.maxRows} fees` });
  const seen = new Map<string, number>();
  for (const row of rows) {
    const at = (column: string) => `lines.${row.line}.${column}`;
    const year = (row.year ?? "").trim();
    if (year === "") issues.push({ field: at("year"), reason: `line ${row.line}: the year is missing` });
    else if (!YEAR.test(year) || Number(year) < L.yearMin || Number(year) > L.yearMax)
      issues.push({
        field: at("year"),
        reason: `line ${row.line}: must be a year from ${L.yearMin} to ${L.yearMax}`,
        value: year,
      });
    const code = (row.code ?? "").trim().toUpperCase();
    if (code === "") issues.push({ field: at("code"), reason: `line ${row.line}: the code is missing` });
    else if (!catalog.has(code))
      issues.push({
        field: at("code"),
        reason: `line ${row.line}: not a code of the organisation's billing catalog`,
        value: code,
      });
    const amount = (row.allowedAmount ?? "").trim();
    if (amount === "") issues.push({ field: at("allowed_amount"), reason: `line ${row.line}: the amount is missing` });
    else if (amount.startsWith("-"))
      issues.push({ field: at("allowed_amount"), reason: `line ${row.line}: must not be negative`, value: amount });
    else if (!AMOUNT.test(amount) || amountToCents(amount) > L.amountMaxCents)
      issues.push({
        field: at("allowed_amount"),
        reason: `line ${row.line}: must be dollars with at most two decimals, up to ${L.amountMaxCents / 100}`,
        value: amount,
      });
    const key = `${year}:${code}`;
    const earlier = seen.get(key);
    if (year !== "" && code !== "" && earlier !== undefined)
      issues.push({
        field: at("code"),
        reason: `line ${row.line}: ${code} for ${year} is listed on line ${earlier} already`,
        value: code,
      });
    else seen.set(key, row.line);
  }
  return issues;
}
