import { defineKyselyModule } from "../kysely-module.js";
import { staffMigration } from "../migrations/016-staff.js";
import { KyselyStaffRepository } from "../repositories/staff-repository.js";

/** Staff members and their clinic memberships. */
export const staffKyselyModule = defineKyselyModule({
  key: "staff",
  repositories: (db, profile) => ({ staff: new KyselyStaffRepository(db, profile) }),
  migrations: (profile) => ({ "016-staff": staffMigration(profile) }),
  tables: ["staff", "staff_clinics"],
});
