import type { Generated } from "kysely";

export interface PatientsTable {
  id: Generated<number>;
  organisation_id: number;
  clinic_id: number | null;
  first_name: string;
  middle_name: string | null;
  last_name: string;
  date_of_birth: string;
  sex: string;
  phone: string | null;
  email: string | null;
  address_line1: string | null;
  address_line2: string | null;
  address_city: string | null;
  address_state: string | null;
  address_postal_code: string | null;
  address_country: string | null;
  emergency_name: string | null;
  emergency_relationship: string | null;
  emergency_phone: string | null;
  insurance_provider: string | null;
  insurance_policy_number: string | null;
  insurance_group_number: string | null;
  status: string;
  identity_key: string;
  search_text: string;
  first_name_sort: string;
  last_name_sort: string;
  created_at: string;
  updated_at: string;
}

/** The patients domain's tables by name: its line in `Database` (schema.ts). */
export interface PatientsSchema {
  patients: PatientsTable;
}
