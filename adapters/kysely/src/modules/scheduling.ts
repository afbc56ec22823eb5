import { defineKyselyModule } from "../kysely-module.js";
import { providerSchedulesMigration } from "../migrations/026-provider-schedules.js";
import { providerBlocksMigration } from "../migrations/027-provider-blocks.js";
import { blockExceptionsMigration } from "../migrations/038-block-exceptions.js";
import { KyselyBlockRepository } from "../repositories/block-repository.js";
import { KyselyScheduleRepository } from "../repositories/schedule-repository.js";

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
    "038-block-exceptions": blockExceptionsMigration(),
  }),
  tables: ["provider_schedules", "provider_blocks"],
});
