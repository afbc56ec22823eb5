import type { Generated } from "kysely";
import { defineKyselyModule } from "../kysely-module.js";
import { staffMigration } from "../migrations/016-staff.js";
import { KyselyStaffRepository } from "../repositories/staff-repository.js";

export interface StaffTable {
  id: Generated<number>;
  organisation_id: number;
  first_name: string;
  last_name: string;
  /** Folded names: the list sorts on them, case- and accent-insensitively. */
  first_name_sort: string;
  last_name_sort: string;
  email: string;
  /** The lower-cased email: unique per organisation. */
  email_key: string;
  phone: string | null;
  /** JSON array of roles. */
  roles: string;
  status: string;
  search_text: string;
  created_at: string;
  updated_at: string;
  deactivated_at: string | null;
}

export interface StaffClinicsTable {
  staff_id: number;
  clinic_id: number;
}

/** Staff members and their clinic memberships. */
export const staffKyselyModule = defineKyselyModule({
  key: "staff",
  repositories: (db, profile) => ({ staff: new KyselyStaffRepository(db, profile) }),
  migrations: (profile) => ({ "016-staff": staffMigration(profile) }),
  tables: ["staff", "staff_clinics"],
});
