import { foldForMatch } from "../kernel/text-match.js";

/** One ICD-10-CM code of a yearly code set (the CMS order file's row). */
export interface IcdCode10 {
  year: number;
  /** The CMS order number: stable within the year; used as the code's `id` in API replies. */
  orderNumber: number;
  /** Without the dot, as CMS files hold it (M5450). */
  code: string;
  billable: boolean;
  shortDescription: string;
  longDescription: string;
}

/** M5450 → M54.50: the dot goes after the third character. */
export const dottedIcdCode = (code: string): string =>
  code.length > 3 ? `${code.slice(0, 3)}.${code.slice(3)}` : code;

/** The words a description is found by: folded (case, accents), split on anything not a letter or digit. */
export function icdWords(text: string): string[] {
  return [
    ...new Set(
      foldForMatch(text)
        .split(/[^a-z0-9]+/)
        .filter((w) => w.length > 0),
    ),
  ];
}

/**
 * Parses one line of the CMS ICD-10-CM order file (fixed width, 0-based
 * columns: 0-4 order number, 6-12 code, 14 billable flag, 16-75 short
 * description, 77- long description). Throws with the reason on a malformed line.
 */
export function parseIcdOrderLine(line: string, year: number): IcdCode10 {
  const text = line.replace(/\r$/, "");
  const order = text.slice(0, 5);
  const code = text.slice(6, 13).trim();
  const flag = text.slice(14, 15);
  if (!/^\d{5}$/.test(order)) throw new Error("columns 0-4 must be a 5-digit order number");
  if (!/^[A-Z0-9]{3,7}$/.test(code))
    throw new Error(`columns 6-12 must hold a code of 3 to 7 letters or digits, got '${code}'`);
  if (flag !== "0" && flag !== "1") throw new Error(`column 14 must be 0 or 1, got '${flag}'`);
  const shortDescription = text.slice(16, 76).trim();
  const longDescription = text.slice(77).trim() || shortDescription;
  if (!shortDescription) throw new Error("the short description (columns 16-75) is empty");
  return { year, orderNumber: Number(order), code, billable: flag === "1", shortDescription, longDescription };
}
