import type { Generated } from "kysely";

export interface BillingCodesTable {
  id: Generated<number>;
  organisation_id: number;
  code: string;
  description: string;
  timed: number;
  /** JSON arrays. */
  modifiers: string;
  specialities: string;
  note_types: string;
  payer_ids: string;
  active: number;
  created_at: string;
  updated_at: string;
}

/** One allowed amount of an organisation's fee schedule (042-fee-schedules). */
export interface FeeScheduleEntriesTable {
  organisation_id: number;
  year: number;
  code: string;
  allowed_cents: number;
  updated_at: string;
}

/** The billing domain's tables by name: its line in `Database` (schema.ts). */
export interface BillingSchema {
  billing_codes: BillingCodesTable;
  fee_schedule_entries: FeeScheduleEntriesTable;
}
