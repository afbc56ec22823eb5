import type { Generated } from "kysely";

export interface EligibilityChecksTable {
  id: Generated<number>;
  organisation_id: number;
  patient_id: number;
  coverage_id: number;
  source: string;
  status: string;
  service_date: string;
  /** JSON text. */
  result: string | null;
  rejections: string;
  error_code: string | null;
  error_message: string | null;
  request_x12: string | null;
  response_x12: string | null;
  reference: string | null;
  notes: string | null;
  checked_by: number | null;
  checked_at: string;
}

/** An organisation's clearinghouse set through the API (041-clearinghouse-settings). */
export interface ClearinghouseSettingsTable {
  organisation_id: number;
  url: string;
  username: string;
  sealed_password: string;
  submitter_id: string;
  receiver_id: string;
  provider_npi: string;
  provider_name: string;
  timeout_ms: number | null;
  ca_pem: string | null;
  usage: string;
  password_set_at: string;
  last_tested_at: string | null;
  last_test_outcome: string | null;
  created_at: string;
  updated_at: string;
}

/** The eligibility domain's tables by name: its line in `Database` (schema.ts). */
export interface EligibilitySchema {
  eligibility_checks: EligibilityChecksTable;
  clearinghouse_settings: ClearinghouseSettingsTable;
}
