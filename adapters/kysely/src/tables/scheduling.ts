import type { Generated } from "kysely";

export interface ProviderSchedulesTable {
  id: Generated<number>;
  organisation_id: number;
  provider_id: number;
  clinic_id: number;
  /** Comma-separated RFC 5545 day names (MO,WE), empty with an RRULE. */
  weekdays: string;
  start_time: string;
  end_time: string;
  effective_from: string;
  effective_until: string | null;
  rrule: string | null;
  replaces_id: number | null;
  replaced_by_id: number | null;
  created_at: string;
  updated_at: string;
}

export interface ProviderBlocksTable {
  id: Generated<number>;
  organisation_id: number;
  provider_id: number;
  starts_at: string;
  ends_at: string;
  last_ends_at: string;
  reason: string;
  time_zone: string | null;
  rrule: string | null;
  created_at: string;
  removed_at: string | null;
  /** JSON array of the block's exceptions (migration 038); null: none. */
  exceptions: string | null;
  series_id: number | null;
  version: Generated<number>;
}

/** The scheduling domain's tables by name: its line in `Database` (schema.ts). */
export interface SchedulingSchema {
  provider_schedules: ProviderSchedulesTable;
  provider_blocks: ProviderBlocksTable;
}
