/**
 * Everything a note's PDF summary shows, already in words: the renderer only
 * lays it out. Built by SoapDocumentService from the stored note.
 */
export interface SoapSummary {
  organisationName: string;
  clinicName: string | null;
  contextId: string;
  noteType: string;
  patient: { id: number; name: string; dateOfBirth: string | null };
  caseTitle: string | null;
  /** Zoneless date-times as the v1 contract shows them. */
  serviceDateTime: string;
  completedAt: string | null;
  renderingPhysician: string;
  supervisingPhysician: string | null;
  /** Subjective, Objective, Assessment, Plan: their answers as "Label: value" lines. */
  sections: { title: string; lines: string[] }[];
  diagnoses: { code: string; description: string; primary: boolean }[];
  treatments: { code: string; description: string; minutes: number; units: number; modifiers: string[] }[];
  billingRule: string;
  signatures: { role: string; name: string; signedAt: string }[];
  contentHash: string | null;
}

/** "full": every section, as many pages as needed; "short": one page with the essentials. */
export type SummaryVariant = "full" | "short";

/** Lays a summary out as a document (the pdf-lib adapter renders PDF). */
export interface SoapSummaryRenderer {
  readonly contentType: string;
  render(summary: SoapSummary, variant: SummaryVariant): Promise<Uint8Array>;
}

/** A rendered summary as stored and served. */
export interface SoapDocument {
  organisationId: number;
  contextId: string;
  variant: SummaryVariant;
  contentType: string;
  content: Uint8Array;
  createdAt: Date;
}

const label = (key: string) =>
  key
    .replace(/[_.]+/g, " ")
    .replace(/([a-z])([A-Z])/g, "$1 $2")
    .replace(/^\w/, (c) => c.toUpperCase());

/** A form response as readable lines ("Pain scale: 6"), nested keys joined, diagnosis entries left to the diagnoses list. */
export function answerLines(response: Record<string, unknown>, skipKeys: readonly string[] = []): string[] {
  const out: string[] = [];
  const walk = (value: unknown, path: string[]) => {
    if (value === null || value === undefined || value === "") return;
    if (Array.isArray(value)) {
      if (value.every((v) => typeof v !== "object" || v === null)) {
        if (value.length) out.push(`${label(path.join(" "))}: ${value.join(", ")}`);
      } else value.forEach((v, i) => walk(v, [...path, String(i + 1)]));
    } else if (typeof value === "object") {
      for (const [k, v] of Object.entries(value)) if (!skipKeys.includes(k)) walk(v, [...path, k]);
    } else out.push(`${label(path.join(" "))}: ${String(value)}`);
  };
  walk(response, []);
  return out;
}
