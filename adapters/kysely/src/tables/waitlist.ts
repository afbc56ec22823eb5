import type { Generated } from "kysely";

export interface WaitlistRequestsTable {
  id: Generated<number>;
  organisation_id: number;
  patient_id: number;
  service_case_id: number | null;
  /** JSON arrays. */
  provider_ids: string;
  clinic_ids: string;
  appointment_type_id: number;
  preferred_days: string;
  time_windows: string;
  earliest_date: string | null;
  latest_date: string | null;
  priority: string;
  /** 0 high, 1 normal, 2 low: the order offers go in. */
  priority_rank: number;
  payment_mode: string;
  notes: string | null;
  status: string;
  appointment_id: number | null;
  created_at: string;
  updated_at: string;
  version: number;
}

export interface WaitlistOffersTable {
  id: Generated<number>;
  organisation_id: number;
  request_id: number;
  provider_id: number;
  clinic_id: number;
  starts_at: string;
  ends_at: string;
  status: string;
  expires_at: string;
  created_at: string;
  decided_at: string | null;
  appointment_id: number | null;
}

/** The waitlist domain's tables by name: its line in `Database` (schema.ts). */
export interface WaitlistSchema {
  waitlist_requests: WaitlistRequestsTable;
  waitlist_offers: WaitlistOffersTable;
}
