import { DomainError } from "../kernel/domain-error.js";
import { foldForMatch } from "../kernel/text-match.js";
import type { Range, StringFilter, StringMatchMode } from "./fhir-patient-search.js";

// Pure readers of FHIR R4 search values (search.html): strings, dates with prefixes, tokens. Each refuses what it
// cannot read with INVALID_PARAMETER naming the parameter as sent, so the facade answers 400 with an
// OperationOutcome that names it.

const invalid = DomainError.invalidParameter;

/** Comma-separated values, `\,` being a literal comma (search.html#escaping). */
export function splitValues(raw: string): string[] {
  return raw
    .split(/(?<!\\),/)
    .map((v) => v.replace(/\\,/g, ",").trim())
    .filter((v) => v !== "");
}

/** A string parameter (`name`, `family:exact`, `given:contains`). */
export function stringFilter(parameter: string, modifier: string | undefined, raw: string): StringFilter {
  const mode: StringMatchMode | undefined =
    modifier === undefined
      ? "prefix"
      : modifier === "exact"
        ? "exact"
        : modifier === "contains"
          ? "contains"
          : undefined;
  if (!mode) throw invalid(parameter, raw, "supports the modifiers :exact and :contains only");
  const values = splitValues(raw).map((v) => (mode === "exact" ? v : foldForMatch(v)));
  if (!values.length || values.some((v) => v === "" || v.length > 100))
    throw invalid(parameter, raw, "must have 1 to 100 characters per value");
  return { mode, values };
}

const PREFIXES = ["eq", "ne", "gt", "lt", "ge", "le", "sa", "eb", "ap"] as const;
type Prefix = (typeof PREFIXES)[number];

const DATE = /^(\d{4})(?:-(\d{2})(?:-(\d{2}))?)?$/;
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

/** The latest instant a bound may name: records are dated before the year 10000, whose text would sort first. */
const LATEST = new Date(Date.UTC(9999, 11, 31, 23, 59, 59, 999));

/** A date-time whose fields all exist (2026-02-30T10:00Z does not; Date would roll it into March). */
function realDateTime(t: RegExpExecArray): boolean {
  const [y, mo, d, h, mi, s] = [1, 2, 3, 4, 5, 6].map((i) => Number(t[i] ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const day = new Date(Date.UTC(y, mo - 1, d));
  const zone = /^[+-](\d{2}):(\d{2})$/.exec(t[8] ?? "");
  return (
    day.getUTCFullYear() === y &&
    day.getUTCMonth() === mo - 1 &&
    day.getUTCDate() === d &&
    h < 24 &&
    mi < 60 &&
    s < 60 &&
    (!zone || (Number(zone[1]) <= 14 && Number(zone[2]) < 60))
  );
}

/** The instant range a date or date-time covers at its precision (2026: the year; 2026-11-28T10:00Z: that minute). */
function coveredRange(parameter: string, value: string): { from: Date; before: Date } {
  const d = DATE.exec(value);
  if (d) {
    const [y, m, day] = [Number(d[1]), d[2] ? Number(d[2]) - 1 : undefined, d[3] ? Number(d[3]) : undefined];
    const from = new Date(Date.UTC(y, m ?? 0, day ?? 1));
    const ok =
      from.getUTCFullYear() === y &&
      (m === undefined || from.getUTCMonth() === m) &&
      (day === undefined || from.getUTCDate() === day);
    if (ok) {
      const before =
        day !== undefined
          ? new Date(Date.UTC(y, m!, day + 1))
          : m !== undefined
            ? new Date(Date.UTC(y, m + 1, 1))
            : new Date(Date.UTC(y + 1, 0, 1));
      return { from, before };
    }
  }
  const t = DATE_TIME.exec(value);
  const at = t && realDateTime(t) ? new Date(value) : undefined;
  if (t && at && !Number.isNaN(at.getTime())) {
    const step = t[7] ? 1 : t[6] ? 1000 : 60_000;
    return { from: at, before: new Date(at.getTime() + step) };
  }
  throw invalid(
    parameter,
    value,
    "must be a FHIR date (YYYY, YYYY-MM, YYYY-MM-DD) or a date-time with a time zone, after an optional prefix eq, gt, lt, ge or le",
  );
}

/**
 * A date parameter's value as a half-open instant range: `eq` (the default) the value's whole precision, `ge`/`gt`
 * from its start/end, `le`/`lt` up to its end/start. `ne`, `sa`, `eb` and `ap` are refused (not implemented).
 */
export function dateRange(parameter: string, raw: string): Range<Date> {
  const prefix = (PREFIXES as readonly string[]).includes(raw.slice(0, 2)) ? (raw.slice(0, 2) as Prefix) : undefined;
  const value = prefix ? raw.slice(2) : raw;
  const covered = coveredRange(parameter, value);
  // Past the year 9999: a lower bound there matches nothing (clamped to the last instant), an upper one everything.
  const from = covered.from > LATEST ? LATEST : covered.from;
  const before = covered.before > LATEST ? undefined : covered.before;
  switch (prefix ?? "eq") {
    case "eq":
      return { from, before };
    case "ge":
      return { from };
    case "gt":
      return { from: before ?? LATEST };
    case "le":
      return { before };
    case "lt":
      return { before: from };
    default:
      throw invalid(parameter, raw, `the prefix ${prefix} is not supported; use eq, gt, lt, ge or le`);
  }
}

/** A date parameter over calendar dates (birthdate): the range as YYYY-MM-DD bounds. */
export function calendarDateRange(parameter: string, raw: string): Range<string> {
  if (raw.includes("T")) throw invalid(parameter, raw, "must be a date (YYYY, YYYY-MM or YYYY-MM-DD), no time");
  const r = dateRange(parameter, raw);
  const day = (d: Date | undefined) => d?.toISOString().slice(0, 10);
  return { from: day(r.from), before: day(r.before) };
}

/** A token `system|code`, `|code`, `system|` or `code` (search.html#token). */
export function token(raw: string): { system: string | undefined; code: string | undefined } {
  const bar = raw.indexOf("|");
  if (bar < 0) return { system: undefined, code: raw };
  return { system: raw.slice(0, bar), code: raw.slice(bar + 1) || undefined };
}
