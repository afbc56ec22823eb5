import type { Generated } from "kysely";

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

/** The staff domain's tables by name: its line in `Database` (schema.ts). */
export interface StaffSchema {
  staff: StaffTable;
  staff_clinics: StaffClinicsTable;
}
