import type { TherapyBucket } from "./therapy-thresholds.js";

/**
 * The therapy disciplines of Medicare's outpatient therapy benefit and the modifier each line of a plan of care's
 * services carries (CMS Pub. 100-04, chapter 5, section 20.1): GP physical therapy, GO occupational therapy, GN
 * speech-language pathology.
 */
export const THERAPY_DISCIPLINES = ["PT", "OT", "SLP"] as const;
export type TherapyDiscipline = (typeof THERAPY_DISCIPLINES)[number];

export const DISCIPLINE_MODIFIERS: Readonly<Record<TherapyDiscipline, string>> = Object.freeze({
  PT: "GP",
  OT: "GO",
  SLP: "GN",
});

/** The threshold bucket of a discipline: PT and SLP are counted together. */
export const bucketOfDiscipline = (d: TherapyDiscipline): TherapyBucket => (d === "OT" ? "OT" : "PT_SLP");

/** The discipline a line's modifiers state, or undefined. */
export function disciplineOfModifiers(modifiers: readonly string[]): TherapyDiscipline | undefined {
  return THERAPY_DISCIPLINES.find((d) => modifiers.includes(DISCIPLINE_MODIFIERS[d]));
}

/**
 * Therapy assistants, whose share of a service past 10% of its minutes brings CQ (a physical therapist assistant)
 * or CO (an occupational therapy assistant), paid at 85% (42 CFR 410.59(a)(4), 410.60(a)(4); Bipartisan Budget
 * Act of 2018, section 53107). Speech-language pathology has no assistants under Medicare.
 */
export type AssistantKind = "PTA" | "OTA";
export const ASSISTANT_MODIFIERS: Readonly<Record<AssistantKind, string>> = Object.freeze({ PTA: "CQ", OTA: "CO" });
/** The payment percent of a line with CQ or CO. */
export const ASSISTANT_PAYMENT_PERCENT = 85;
/** The de minimis rule: an assistant's minutes count when they are more than this share of the service's. */
export const ASSISTANT_DE_MINIMIS_PERCENT = 10;

const fold = (credential: string) => credential.toUpperCase().replace(/[^A-Z]/g, "");
const DISCIPLINE_CREDENTIALS: ReadonlyArray<[TherapyDiscipline, readonly string[]]> = [
  ["PT", ["PT", "DPT", "MPT", "MSPT", "BSPT"]],
  ["OT", ["OT", "OTR", "OTRL", "OTD", "MOT", "MSOT"]],
  ["SLP", ["SLP", "CCCSLP", "SLPCCC", "MACCCSLP", "MSCCCSLP"]],
];
const ASSISTANT_CREDENTIALS: ReadonlyArray<[AssistantKind, readonly string[]]> = [
  ["PTA", ["PTA", "LPTA"]],
  ["OTA", ["COTA", "COTAL", "OTA", "OTAL"]],
];

/** The discipline of a therapist's credentials (DPT → PT, OTR/L → OT, CCC-SLP → SLP); undefined for others. */
export function disciplineOfCredentials(credentials: readonly string[]): TherapyDiscipline | undefined {
  const folded = credentials.map(fold);
  return DISCIPLINE_CREDENTIALS.find(([, names]) => folded.some((c) => names.includes(c)))?.[0];
}

/** Whether credentials name a therapy assistant (PTA; COTA, OTA), and which. */
export function assistantOfCredentials(credentials: readonly string[]): AssistantKind | undefined {
  const folded = credentials.map(fold);
  return ASSISTANT_CREDENTIALS.find(([, names]) => folded.some((c) => names.includes(c)))?.[0];
}

/** A discipline as a Plan form states it (PT, OT, SLP, any case); undefined otherwise. */
export function disciplineOfText(value: unknown): TherapyDiscipline | undefined {
  if (typeof value !== "string") return undefined;
  const upper = value.trim().toUpperCase();
  return (THERAPY_DISCIPLINES as readonly string[]).includes(upper) ? (upper as TherapyDiscipline) : undefined;
}
