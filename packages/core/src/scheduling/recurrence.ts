import type { ValidationIssue } from "../kernel/domain-error.js";
import { RRule, type RRuleInstance, rrulestr } from "./rrule-interop.js";

/** The longest RRULE text a shift or a block stores. */
export const RRULE_MAX_LENGTH = 500;

/** The rule's options as written (`RRULE:` prefix optional), with DTSTART set by the caller. */
export function ruleOptions(text: string, dtstart?: Date): RRuleInstance["origOptions"] {
  const parsed = rrulestr(text.replace(/^RRULE:/i, ""), dtstart ? { dtstart } : {}) as RRuleInstance;
  return dtstart ? { ...parsed.origOptions, dtstart } : parsed.origOptions;
}

/**
 * Problems with an RRULE as shifts and blocks accept it (field `rrule`): one line without DTSTART (the record's
 * own start sets it), DAILY, WEEKLY or MONTHLY, no times of its own when `timesSetElsewhere`, and bounded by
 * UNTIL or COUNT unless `boundedElsewhere`. At most one problem, the first.
 */
export function ruleTextIssues(
  text: string,
  rules: { startName: string; timesSetElsewhere: boolean; boundedElsewhere: boolean; boundHint: string },
): ValidationIssue[] {
  const issue = (reason: string) => [{ field: "rrule", reason, value: text }];
  if (text.length > RRULE_MAX_LENGTH) return issue(`must be at most ${RRULE_MAX_LENGTH} characters`);
  let options: RRuleInstance["origOptions"];
  try {
    options = ruleOptions(text);
  } catch (error) {
    return issue(`is not an RFC 5545 RRULE (${(error as Error).message})`);
  }
  if (/DTSTART|\n/i.test(text)) return issue(`must be one RRULE line without DTSTART: ${rules.startName} sets it`);
  if (options.freq === undefined || ![RRule.DAILY, RRule.WEEKLY, RRule.MONTHLY].includes(options.freq))
    return issue("FREQ must be DAILY, WEEKLY or MONTHLY");
  if (
    rules.timesSetElsewhere &&
    (options.byhour !== undefined || options.byminute !== undefined || options.bysecond !== undefined)
  )
    return issue("must not set BYHOUR, BYMINUTE or BYSECOND: the start and end times do");
  if (!rules.boundedElsewhere && options.until === undefined && options.count === undefined)
    return issue(`is unbounded: give ${rules.boundHint}`);
  return [];
}

const rules = new Map<string, RRuleInstance>();

/**
 * One rule instance per distinct rule: building one (its year masks) costs far more than reading it, and rrule
 * keeps the answers of an instance's `between` calls. Bounded: a full cache starts again empty.
 */
export function cachedRule(key: string, build: () => RRuleInstance): RRuleInstance {
  const known = rules.get(key);
  if (known) return known;
  if (rules.size >= 10_000) rules.clear();
  const rule = build();
  rules.set(key, rule);
  return rule;
}
