import type { Generated } from "kysely";

export interface OrganisationsTable {
  id: number;
  name: string;
  plan: string;
  is_active: number;
  created_at: string;
  updated_at: string;
  /** Bumped by WebhookRepository.lockOrganisation (migration 006). */
  webhook_lock: Generated<number>;
  /** Documentation settings (migration 010). */
  billing_unit_rule: Generated<string>;
  require_cosign: Generated<number>;
  auto_submit_billing: Generated<number>;
  /** Migration 014. */
  require_plan_section: Generated<number>;
  /** Migration 021. */
  time_zone: Generated<string>;
  deactivated_at: string | null;
  audit_reads: Generated<number>;
}

export interface ClinicsTable {
  id: Generated<number>;
  organisation_id: number;
  name: string;
  time_zone: string;
  /** 0 or 1 (migration 004). */
  allow_double_booking: Generated<number>;
  /** 0 or 1 (migration 005). */
  visit_limit_warning_only: Generated<number>;
  /** Migration 017: the v2 directory's details. */
  address_line1: string | null;
  address_line2: string | null;
  city: string | null;
  state: string | null;
  postal_code: string | null;
  country: string | null;
  phone: string | null;
  place_of_service: Generated<string>;
  npi: string | null;
  tax_id: string | null;
  /** 0 or 1. */
  active: Generated<number>;
  /** Null only between migration 017's column and its backfill. */
  created_at: string | null;
  updated_at: string | null;
}

export interface ProvidersTable {
  id: Generated<number>;
  organisation_id: number;
  user_id: number;
  first_name: string;
  last_name: string;
  npi: string | null;
  supervising_user_id: number | null;
  /** Bumped by every booking of the doctor: the row lock that serialises bookings (migration 004). */
  schedule_version: Generated<number>;
  /** Migration 018: JSON arrays of strings. */
  credentials: Generated<string>;
  specialities: Generated<string>;
  licence_number: string | null;
  licence_state: string | null;
  /** 0 or 1. */
  requires_cosign: Generated<number>;
  active: Generated<number>;
  /** Null only between migration 018's column and its backfill. */
  created_at: string | null;
  updated_at: string | null;
}

export interface ProviderClinicsTable {
  provider_id: number;
  clinic_id: number;
}

export interface OutboxTable {
  id: Generated<number>;
  organisation_id: number;
  event_type: string;
  data: string;
  occurred_at: string;
  dispatched_at: string | null;
}

export interface RateLimitCountersTable {
  counter_key: string;
  window_start: string;
  hits: number;
}

export interface AppointmentCategoriesTable {
  id: Generated<number>;
  organisation_id: number;
  name: string;
  category_type: string;
  duration_minutes: number;
  /** Migration 019: "#RRGGBB" or null; 0 or 1. */
  colour: string | null;
  active: Generated<number>;
}

export interface CancellationReasonsTable {
  id: Generated<number>;
  organisation_id: number;
  reason_key: string;
  reason_label: string;
  cancellation_fee: number;
  status: string;
}

export interface OrganisationSpecializationsTable {
  organisation_id: number;
  code: string;
}

export interface JobsTable {
  id: Generated<number>;
  queue: string;
  payload: string;
  /** pending, done or failed */
  status: string;
  run_at: string;
  attempts: number;
  lease_token: string | null;
  lease_expires_at: string | null;
  last_error: string | null;
  completed_by: string | null;
  created_at: string;
  finished_at: string | null;
}

export interface LocksTable {
  name: string;
  holder: string;
  expires_at: string;
}

/** The foundation domain's tables by name: its line in `Database` (schema.ts). */
export interface FoundationSchema {
  jobs: JobsTable;
  locks: LocksTable;
  organisations: OrganisationsTable;
  clinics: ClinicsTable;
  providers: ProvidersTable;
  provider_clinics: ProviderClinicsTable;
  outbox: OutboxTable;
  rate_limit_counters: RateLimitCountersTable;
  appointment_categories: AppointmentCategoriesTable;
  cancellation_reasons: CancellationReasonsTable;
  organisation_specializations: OrganisationSpecializationsTable;
}
