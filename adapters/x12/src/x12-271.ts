import {
  ELIGIBILITY_SERVICE_TYPES,
  type EligibilityRejection,
  type EligibilityResult,
  type EligibilityServiceType,
  type ServiceBenefits,
} from "@openpractice/core";
import x12 from "node-x12";
import { AAA_FOLLOW_UPS, AAA_REASONS } from "./aaa-codes.js";

const { X12Parser } = x12;

/** The 271 could not be read as the answer to our 270. */
export class Invalid271Error extends Error {}

const isoDate = (d8: string) => `${d8.slice(0, 4)}-${d8.slice(4, 6)}-${d8.slice(6, 8)}`;
const isD8 = (v: string) => /^\d{8}$/.test(v);
const num = (v: string) => (v.trim() === "" ? null : Number(v));

function emptyBenefits(): ServiceBenefits {
  return {
    copay: null,
    coinsurancePercent: null,
    deductible: { total: null, remaining: null },
    outOfPocket: { total: null, remaining: null },
    visits: { limit: null, used: null, remaining: null },
    priorAuthorizationRequired: null,
  };
}

/** The loop letters of HL03's hierarchical level codes (005010X279A1): payer, provider, subscriber, dependent. */
const LEVEL_LOOPS: Readonly<Record<string, string>> = { "20": "A", "21": "B", "22": "C", "23": "D" };

/** AAA04 follow-ups that allow the same inquiry again, with the wait they ask for (days). */
const RETRY_AFTER_DAYS = new Map([
  ["P", 0],
  ["R", 0],
  ["X", 10],
  ["W", 30],
]);
/**
 * AAA04 follow-ups that forbid sending it again as it is: C correct and resubmit, N not allowed, S do not resubmit
 * (a third party is asked), Y do not resubmit (the payer will deliver the answer itself).
 */
const NO_RETRY = new Set(["C", "N", "S", "Y"]);

/** Time periods (EB06, HSD05) of a limit over a span that holds visits: years, contract, lifetime, service year. */
const LIMIT_PERIODS = new Set(["", "21", "22", "23", "25", "32"]);
/** Periods saying what is left: remaining (29), lifetime remaining (33). */
const REMAINING_PERIODS = new Set(["29", "33"]);
/** Which of limit or remaining a visit count of this period is; undefined: a per-day, per-visit... limit, not read. */
const visitSlot = (period: string) =>
  REMAINING_PERIODS.has(period) ? ("remaining" as const) : LIMIT_PERIODS.has(period) ? ("limit" as const) : undefined;

const own = (table: Readonly<Record<string, string>>, key: string) =>
  Object.hasOwn(table, key) ? table[key] : undefined;

/** Quantity qualifiers (EB09) counting visits: visits (VS) and number of services or procedures (P6). */
const VISIT_COUNTS = new Set(["VS", "P6"]);

/**
 * An AAA segment as a rejection: its reason and follow-up in words, the loop it came in, whether the payer took
 * the request as valid (AAA01), and whether and when the same check may be sent again: yes when the follow-up asks
 * for it (P resubmit original, R resubmission allowed; X after 10 days, W after 30),
 * or when AAA01 is Y and no follow-up forbids it (C correct first, N not allowed, S and Y do not resubmit).
 */
function rejectionOf(values: string[], loop: string | null): EligibilityRejection {
  const [valid = "", , code = "", follow = ""] = values;
  const allowed = RETRY_AFTER_DAYS.has(follow) || (valid === "Y" && !NO_RETRY.has(follow));
  return {
    code,
    reason: own(AAA_REASONS, code) ?? `Rejected (reason code ${code || "missing"})`,
    followUp: follow ? (own(AAA_FOLLOW_UPS, follow) ?? follow) : null,
    loop,
    validRequest: valid === "Y" ? true : valid === "N" ? false : null,
    retryable: allowed,
    retryAfterDays: allowed ? (RETRY_AFTER_DAYS.get(follow) ?? 0) : null,
  };
}

/**
 * Reads a 005010X279A1 271: AAA rejections in whichever loop they come (the payer's 2000A/2100A, the provider's
 * 2100B, the subscriber's or dependent's 2000/2100, or a benefit's 2110); otherwise whether coverage is active
 * (EB01 1 against 6/7/8), the plan dates (DTP 346/347, or 291 as a range) and, per service type asked about, the
 * in-network (EB12 not N) individual benefits: copay (EB01 B), coinsurance (A), deductible (C) and out-of-pocket (G)
 * totals and remaining (EB06 29), visit limits (F with EB09 VS or P6, or an HSD*VS after it; EB06 or HSD05 29:
 * remaining), visits used (EB09 99), and prior authorization (EB11). Of limit, used and remaining, one the payer
 * leaves out is computed from the other two. A rejection inside a benefit loop (2110) with benefits beside it
 * leaves the result standing: the payer answered, only not about that benefit.
 */
export function parse271(
  text: string,
  traceNumber: string,
): { result: EligibilityResult | null; rejections: EligibilityRejection[] } {
  let segments: Array<{ tag: string; values: string[] }>;
  try {
    const interchange = new X12Parser(true).parse(text.trim());
    const first = Array.isArray(interchange) ? interchange[0] : interchange;
    const tx = first?.functionalGroups?.[0]?.transactions?.[0];
    if (!tx) throw new Error("no transaction set");
    if (tx.header.valueOf(1) !== "271") throw new Error(`transaction set ${tx.header.valueOf(1)} is not a 271`);
    segments = tx.segments.map((s) => ({ tag: s.tag, values: s.elements.map((e) => e.value) }));
  } catch (error) {
    throw new Invalid271Error(`not a readable X12 271: ${(error as Error).message}`);
  }
  const trace = segments.find((s) => s.tag === "TRN")?.values[1];
  if (trace !== undefined && trace !== traceNumber.toUpperCase())
    throw new Invalid271Error(`the 271 answers trace ${trace}, not ${traceNumber}`);

  const rejections: EligibilityRejection[] = [];
  /** EB segments whose own 2110 loop carries an AAA: the payer did not answer about that benefit. */
  const rejectedBenefits = new Set<(typeof segments)[number]>();
  let lastEb: (typeof segments)[number] | undefined;
  let level = "";
  let loop: string | null = null;
  for (const s of segments) {
    if (s.tag === "EB") lastEb = s;
    if (s.tag === "AAA" && loop?.startsWith("2110") && lastEb) rejectedBenefits.add(lastEb);
    if (s.tag === "HL") {
      level = LEVEL_LOOPS[s.values[2] ?? ""] ?? "";
      loop = level ? `2000${level}` : null;
    } else if (s.tag === "NM1" && level)
      // An NM1 after a benefit names an entity of that benefit (2120), not the person of the level (2100).
      loop = /^21[12]0/.test(String(loop)) ? `2120${level}` : `2100${level}`;
    else if (s.tag === "EB" && level) loop = `2110${level}`;
    else if (s.tag === "AAA") rejections.push(rejectionOf(s.values, loop));
  }
  const ebs = segments.filter((s) => s.tag === "EB" && !rejectedBenefits.has(s));
  const aboutTheInquiry = rejections.filter((r) => !r.loop?.startsWith("2110"));
  if (aboutTheInquiry.length > 0 || (rejections.length > 0 && ebs.length === 0)) return { result: null, rejections };
  if (ebs.length === 0) throw new Invalid271Error("the 271 has neither benefits (EB) nor rejections (AAA)");

  let planStartDate: string | null = null;
  let planEndDate: string | null = null;
  let active = false;
  const benefits: Partial<Record<EligibilityServiceType, ServiceBenefits>> = {};
  let inBenefits = false;
  /** The benefits of the last EB counted, and whether it was a limitation (F): an HSD after it qualifies it. */
  let last: { limitation: boolean; of: ServiceBenefits[] } = { limitation: false, of: [] };
  for (const s of segments) {
    if (s.tag === "EB") inBenefits = true;
    if (s.tag === "DTP" && !inBenefits) {
      const [qualifier, format, value = ""] = s.values;
      if (qualifier === "346" && isD8(value)) planStartDate = isoDate(value);
      if (qualifier === "347" && isD8(value)) planEndDate = isoDate(value);
      if (qualifier === "291" && format === "RD8" && /^\d{8}-\d{8}$/.test(value)) {
        planStartDate ??= isoDate(value.slice(0, 8));
        planEndDate ??= isoDate(value.slice(9));
      }
      if (qualifier === "291" && format === "D8" && isD8(value)) planStartDate ??= isoDate(value);
    }
    if (s.tag === "HSD" && last.limitation) {
      const [qualifier = "", quantity = "", , , period = ""] = s.values;
      const slot = visitSlot(period);
      if (qualifier === "VS" && num(quantity) !== null && slot) for (const b of last.of) b.visits[slot] = num(quantity);
      continue;
    }
    if (s.tag !== "EB") continue;
    if (rejectedBenefits.has(s)) {
      last = { limitation: false, of: [] };
      continue;
    }
    const [
      code = "",
      coverageLevel = "",
      typesText = "",
      ,
      ,
      period = "",
      amount = "",
      percent = "",
      qtyQualifier = "",
      quantity = "",
      auth = "",
      network = "",
    ] = s.values;
    if (code === "1") active = true;
    last = { limitation: false, of: [] };
    if (network === "N" || coverageLevel === "FAM") continue;
    const types = (typesText === "" ? ["30"] : typesText.split("^")).filter((t): t is EligibilityServiceType =>
      ELIGIBILITY_SERVICE_TYPES.includes(t as EligibilityServiceType),
    );
    last = { limitation: code === "F", of: types.map((type) => (benefits[type] ??= emptyBenefits())) };
    for (const b of last.of) {
      const remaining = period === "29";
      if (code === "B" && b.copay === null) b.copay = num(amount);
      if (code === "A" && b.coinsurancePercent === null && percent !== "")
        b.coinsurancePercent = Math.round(Number(percent) * 10_000) / 100;
      if (code === "C") b.deductible[remaining ? "remaining" : "total"] = num(amount);
      if (code === "G") b.outOfPocket[remaining ? "remaining" : "total"] = num(amount);
      const slot = visitSlot(period);
      if (code === "F" && VISIT_COUNTS.has(qtyQualifier) && slot) b.visits[slot] = num(quantity);
      if (code === "F" && qtyQualifier === "99") b.visits.used = num(quantity);
      if (auth === "Y") b.priorAuthorizationRequired = true;
      else if (auth === "N" && b.priorAuthorizationRequired === null) b.priorAuthorizationRequired = false;
    }
  }
  for (const b of Object.values(benefits)) completeVisits(b.visits);
  return { result: { active, planStartDate, planEndDate, benefits }, rejections };
}

/** Limit = used + remaining: the one of the three the payer left out, from the other two (never below zero). */
function completeVisits(v: ServiceBenefits["visits"]): void {
  if (v.used === null && v.limit !== null && v.remaining !== null) v.used = Math.max(0, v.limit - v.remaining);
  else if (v.remaining === null && v.limit !== null && v.used !== null) v.remaining = Math.max(0, v.limit - v.used);
  else if (v.limit === null && v.used !== null && v.remaining !== null) v.limit = v.used + v.remaining;
}
