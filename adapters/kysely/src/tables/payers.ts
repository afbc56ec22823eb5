import type { Generated } from "kysely";

export interface PayersTable {
  id: Generated<number>;
  /** 0: the shared registry. */
  organisation_id: number;
  payer_id: string;
  name: string;
  /** The folded name: the list sorts on it. */
  name_sort: string;
  payer_type: string;
  /** 0 or 1. */
  eligibility: Generated<number>;
  /** 0 or 1 (migration 043). */
  medicare_part_b: Generated<number>;
  active: Generated<number>;
  search_text: string;
  created_at: string;
  updated_at: string;
}

/** The payers domain's tables by name: its line in `Database` (schema.ts). */
export interface PayersSchema {
  payers: PayersTable;
}
