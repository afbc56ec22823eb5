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

/** The eligibility domain's tables by name: its line in `Database` (schema.ts). */
export interface EligibilitySchema {
  eligibility_checks: EligibilityChecksTable;
}
