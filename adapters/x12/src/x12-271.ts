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

/**
 * Reads a 005010X279A1 271: AAA rejections anywhere; otherwise whether coverage is active (EB01 1 against 6/7/8),
 * the plan dates (DTP 346/347, or 291 as a range) and, per service type asked about, the in-network (EB12 not N)
 * individual benefits: copay (EB01 B), coinsurance (A), deductible (C) and out-of-pocket (G) totals and remaining
 * (EB06 29), visit limits and remaining (F with EB09 VS), and prior authorization (EB11). Visits used are the limit
 * less those remaining when the payer gives both.
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
  const rejections: EligibilityRejection[] = segments
    .filter((s) => s.tag === "AAA" && s.values[0] === "N")
    .map((s) => {
      const code = s.values[2] ?? "";
      const follow = s.values[3] ?? "";
      return {
        code,
        reason: AAA_REASONS[code] ?? `Rejected (reason code ${code || "missing"})`,
        followUp: follow ? (AAA_FOLLOW_UPS[follow] ?? follow) : null,
      };
    });
  if (rejections.length > 0) return { result: null, rejections };
  const ebs = segments.filter((s) => s.tag === "EB");
  if (ebs.length === 0) throw new Invalid271Error("the 271 has neither benefits (EB) nor rejections (AAA)");

  let planStartDate: string | null = null;
  let planEndDate: string | null = null;
  let active = false;
  const benefits: Partial<Record<EligibilityServiceType, ServiceBenefits>> = {};
  let inBenefits = false;
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
    if (s.tag !== "EB") continue;
    const [
      code = "",
      level = "",
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
    if (network === "N" || level === "FAM") continue;
    const types = (typesText === "" ? ["30"] : typesText.split("^")).filter((t): t is EligibilityServiceType =>
      ELIGIBILITY_SERVICE_TYPES.includes(t as EligibilityServiceType),
    );
    for (const type of types) {
      const b = (benefits[type] ??= emptyBenefits());
      const remaining = period === "29";
      if (code === "B" && b.copay === null) b.copay = num(amount);
      if (code === "A" && b.coinsurancePercent === null && percent !== "")
        b.coinsurancePercent = Math.round(Number(percent) * 10_000) / 100;
      if (code === "C") b.deductible[remaining ? "remaining" : "total"] = num(amount);
      if (code === "G") b.outOfPocket[remaining ? "remaining" : "total"] = num(amount);
      if (code === "F" && qtyQualifier === "VS") b.visits[remaining ? "remaining" : "limit"] = num(quantity);
      if (auth === "Y") b.priorAuthorizationRequired = true;
      else if (auth === "N" && b.priorAuthorizationRequired === null) b.priorAuthorizationRequired = false;
    }
  }
  for (const b of Object.values(benefits)) {
    if (b.visits.limit !== null && b.visits.remaining !== null)
      b.visits.used = Math.max(0, b.visits.limit - b.visits.remaining);
  }
  return { result: { active, planStartDate, planEndDate, benefits }, rejections: [] };
}
