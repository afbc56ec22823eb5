import type { Generated } from "kysely";
import { defineKyselyModule } from "../kysely-module.js";
import { providerSchedulesMigration } from "../migrations/026-provider-schedules.js";
import { providerBlocksMigration } from "../migrations/027-provider-blocks.js";
import { KyselyBlockRepository } from "../repositories/block-repository.js";
import { KyselyScheduleRepository } from "../repositories/schedule-repository.js";

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
}

/** Providers' working hours and blocks. */
export const schedulingKyselyModule = defineKyselyModule({
  key: "scheduling",
  repositories: (db, profile) => ({
    schedules: new KyselyScheduleRepository(db, profile),
    blocks: new KyselyBlockRepository(db, profile),
  }),
  migrations: (profile) => ({
    "026-provider-schedules": providerSchedulesMigration(profile),
    "027-provider-blocks": providerBlocksMigration(profile),
  }),
  tables: ["provider_schedules", "provider_blocks"],
});
