import type { IcdCode10 } from "./icd-code.js";

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
  /**
   * Replaces the year's code set with `codes` (running it twice gives the same state). Searches see the previous
   * set until the new one is whole, then the new one; writes may commit in batches so other writers interleave.
   * `onProgress` hears how many codes are written so far (between batches: the next waits for it).
   */
  replaceYear(
    year: number,
    codes: IcdCode10[],
    onProgress?: (done: number, total: number) => void | Promise<void>,
  ): Promise<void>;
  /** The newest year loaded, or undefined when none is. */
  latestYear(): Promise<number | undefined>;
  /**
   * Codes matching the code prefix or every word: an exact code first, then
   * codes by prefix in code order, then word matches with the shortest
   * description first (then code). `total` counts every match.
   */
  search(query: IcdSearch): Promise<{ codes: IcdCode10[]; total: number }>;
  /** The codes of `year` among `codes` (without the dot, upper case), in one read; those it lacks are left out. */
  findCodes(year: number, codes: readonly string[]): Promise<IcdCode10[]>;
}
