import type { ValidationIssue } from "./domain-error.js";

const ISO_DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** True when `value` is a real calendar date written YYYY-MM-DD (no 2023-02-30). */
export function isCalendarDate(value: string): boolean {
  const m = ISO_DATE.exec(value);
  if (!m) return false;
  const [y, mo, d] = [Number(m[1]), Number(m[2]), Number(m[3])];
  const date = new Date(Date.UTC(y, mo - 1, d));
  return date.getUTCFullYear() === y && date.getUTCMonth() === mo - 1 && date.getUTCDate() === d;
}

/** Adds an issue naming `field` unless `value` is absent or a calendar date. */
export function checkDate(issues: ValidationIssue[], field: string, value: string | null | undefined): void {
  if (value != null && !isCalendarDate(value)) issues.push({ field, reason: "must be a date as YYYY-MM-DD", value });
}

/** The calendar date `days` after `date` (both YYYY-MM-DD; negative days go back). */
export function addCalendarDays(date: string, days: number): string {
  const d = new Date(`${date}T00:00:00Z`);
  d.setUTCDate(d.getUTCDate() + days);
  return d.toISOString().slice(0, 10);
}
