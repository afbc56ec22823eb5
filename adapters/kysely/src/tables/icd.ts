import type { Generated } from "kysely";

export interface IcdCodesTable {
  year: number;
  /** Without the dot. */
  code: string;
  order_number: number;
  billable: number;
  short_description: string;
  long_description: string;
  /** Ranks word matches: shorter descriptions first. */
  description_length: number;
}

/** Which rows serve each code-set year (migration 025): icd_codes and icd_words rows under storage_key. */
export interface IcdYearsTable {
  year: number;
  storage_key: number;
  codes: number;
  updated_at: string;
}

export interface IcdWordsTable {
  year: number;
  /** A folded word of the long description. */
  word: string;
  code: string;
  /** The code's long-description length, the search's ranking key (migration 012). */
  description_length: Generated<number>;
}

/** The icd domain's tables by name: its line in `Database` (schema.ts). */
export interface IcdSchema {
  icd_codes: IcdCodesTable;
  icd_words: IcdWordsTable;
  icd_years: IcdYearsTable;
}
