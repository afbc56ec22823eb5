import type { IcdCode10 } from "../icd/icd-code.js";

export interface IcdSearch {
  year: number;
  /** A code prefix without the dot (upper case), when the query looks like a code. */
  codePrefix?: string | undefined;
  /** Folded words; each must start a word of the description (any order). */
  words: string[];
  limit: number;
  offset: number;
}

/** Yearly ICD-10-CM code sets (shared by every organisation: public reference data). */
export interface IcdRepository {
  /** Replaces the year's code set with `codes` in one transaction (running it twice gives the same state). */
  replaceYear(year: number, codes: IcdCode10[]): Promise<void>;
  /** The newest year loaded, or undefined when none is. */
  latestYear(): Promise<number | undefined>;
  /**
   * Codes matching the code prefix or every word: an exact code first, then
   * codes by prefix in code order, then word matches with the shortest
   * description first (then code). `total` counts every match.
   */
  search(query: IcdSearch): Promise<{ codes: IcdCode10[]; total: number }>;
}
