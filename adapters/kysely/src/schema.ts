import type { Generated } from "kysely";
import type { PayersTable } from "./modules/payers.js";
import type { ApiClientsTable } from "./modules/access.js";
import type { AuditEventsTable } from "./modules/audit.js";
import type { StaffClinicsTable, StaffTable } from "./modules/staff.js";
import type { ProviderBlocksTable, ProviderSchedulesTable } from "./modules/scheduling.js";
import type { WaitlistOffersTable, WaitlistRequestsTable } from "./modules/waitlist.js";
import type { EligibilityChecksTable } from "./modules/eligibility.js";

/**
 * Table shapes shared by every engine. Timestamps are ISO 8601 UTC strings of
 * fixed width (2026-01-02T03:04:05.678Z): they sort as text, compare the same on
 * every engine and never depend on a server or session time zone.
 */
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

export interface AppointmentsTable {
  id: Generated<number>;
  organisation_id: number;
  patient_id: number;
  doctor_id: number;
  clinic_id: number;
  starts_at: string;
  ends_at: string;
  payment_mode: string;
  service_case_id: number | null;
  tele_health_url: string | null;
  comments: string | null;
  appointment_notes: string | null;
  status: string;
  cancellation_reason_key: string | null;
  cancellation_reason_label: string | null;
  cancellation_reason_comment: string | null;
  cancellation_fee: number | string | null;
  cancelled_at: string | null;
  cancelled_by: number | null;
  created_by: number | null;
  created_at: string;
  updated_at: string;
  /** Optimistic concurrency: every update checks and bumps it. */
  version: number;
}

export interface AppointmentCategoryLinksTable {
  appointment_id: number;
  category_id: number;
}

export interface AppointmentHistoryTable {
  id: Generated<number>;
  organisation_id: number;
  appointment_id: number;
  action: string;
  from_status: string | null;
  to_status: string;
  starts_at: string;
  ends_at: string;
  by_user_id: number | null;
  at: string;
}

export interface ReferringPhysiciansTable {
  id: Generated<number>;
  organisation_id: number;
  first_name: string;
  last_name: string;
  npi: string | null;
  phone_number: string | null;
  fax_number: string | null;
  address1: string | null;
  address2: string | null;
  city: string | null;
  state: string | null;
  zip: string | null;
  /** Folded "first last npi" for search. */
  search_text: string;
  created_at: string;
  updated_at: string;
}

export interface InsuranceCardsTable {
  id: Generated<number>;
  organisation_id: number;
  patient_id: number;
  payer_reg_id: number | null;
  payer_name: string;
  payer_id: string | null;
  insurance_number: string;
  plan_start_date: string | null;
  plan_end_date: string | null;
  created_at: string;
  /** Migration 029 (v2 coverages). */
  group_number: string | null;
  plan_name: string | null;
  subscriber_relationship: Generated<string>;
  subscriber_first_name: string | null;
  subscriber_last_name: string | null;
  subscriber_date_of_birth: string | null;
  coverage_priority: string | null;
  active: Generated<number>;
  updated_at: string | null;
  deleted_at: string | null;
}

export interface CasesTable {
  id: Generated<number>;
  organisation_id: number;
  patient_id: number;
  clinic_id: number | null;
  case_title: string;
  specialization: string;
  direct_access: number;
  referring_physician_id: number | null;
  secondary_referring_physician_id: number | null;
  tertiary_referring_physician_id: number | null;
  /** JSON arrays as text: the same on every engine. */
  icd_codes: string;
  treating_icd_codes: string;
  insurance_cards: string;
  number_of_past_visits: number;
  treatment_status: string;
  treatment_start_date: string | null;
  date_of_injury: string | null;
  date_of_surgery: string | null;
  payment_mode: string | null;
  frequency_and_duration: string | null;
  visit_track_required: number;
  case_visit_limit: number;
  body_pain_notes: string | null;
  affected_body_parts: string;
  therapist_ids: string;
  /** Bumped by lockForVisits: the row lock that serialises visit counting. */
  visit_lock: Generated<number>;
  created_at: string;
  updated_at: string;
}

export interface AuthorizationsTable {
  id: Generated<number>;
  organisation_id: number;
  case_id: number;
  patient_id: number;
  coverage_id: number | null;
  reference_number: string;
  payer_name: string;
  payer_id: string | null;
  plan_start_date: string | null;
  plan_end_date: string | null;
  effective_start_date: string;
  effective_end_date: string;
  authorized_visits: number;
  previously_consumed_visits: number;
  status: string;
  icd_codes: string;
  cpt_details: string;
  created_at: string;
  updated_at: string;
}

export interface WebhookSubscriptionsTable {
  id: Generated<number>;
  organisation_id: number;
  name: string;
  /** JSON array of event types. */
  event_types: string;
  notification_url: string;
  api_version: string;
  is_active: number;
  /** AES-256-GCM sealed signature key (SecretCipher); never the key itself. */
  encrypted_key: string;
  /** Migration 024: the key rotated out (encrypted) and when it stops signing; the signature format. */
  previous_encrypted_key: string | null;
  previous_key_expires_at: string | null;
  signature_format: Generated<string>;
  created_at: string;
  updated_at: string;
}

export interface WebhookDeliveriesTable {
  id: Generated<number>;
  organisation_id: number;
  subscription_id: number;
  outbox_id: number | null;
  event_id: string;
  event_type: string;
  api_version: string;
  data: string;
  status: string;
  attempts: number;
  next_attempt_at: string | null;
  last_status_code: number | null;
  created_at: string;
  updated_at: string;
}

export interface WebhookAttemptsTable {
  id: Generated<number>;
  delivery_id: number;
  attempt: number;
  attempt_id: string;
  at: string;
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

export interface NotificationDevicesTable {
  /** dev_<uuid> */
  id: string;
  organisation_id: number;
  user_type: string;
  user_id: string;
  endpoint: string;
  /** SHA-256 hex of endpoint; unique per organisation (migration 011). */
  endpoint_hash: string;
  p256dh: string;
  auth: string;
  label: string | null;
  created_at: string;
  updated_at: string;
}

export interface NotificationsTable {
  /** ntf_<uuid> */
  id: string;
  organisation_id: number;
  user_type: string;
  user_id: string;
  title: string;
  body: string | null;
  link: string | null;
  /** Unique per organisation when not null. */
  idempotency_key: string | null;
  delivery_status: string;
  read_at: string | null;
  created_at: string;
  updated_at: string;
}

export interface NotificationPushesTable {
  notification_id: string;
  device_id: string;
  organisation_id: number;
  push_service: string;
  status: string;
  attempts: number;
  last_status_code: number | null;
  error: string | null;
  created_at: string;
  updated_at: string;
}

export interface NotificationPushAttemptsTable {
  id: Generated<number>;
  notification_id: string;
  device_id: string;
  attempt: number;
  at: string;
  status_code: number | null;
  retry_after_seconds: number | null;
  duration_ms: number;
  outcome: string;
  error: string | null;
}

export interface SoapNotesTable {
  id: Generated<number>;
  context_id: string;
  organisation_id: number;
  clinic_id: number;
  patient_id: number;
  service_case_id: number | null;
  case_title: string | null;
  appointment_id: number | null;
  note_type: string;
  category: string | null;
  service_date_time: string;
  entry_date_time: string;
  status: string;
  completed: number;
  completed_at: string | null;
  rendering_physician: number;
  supervising_physician: number | null;
  /** JSON object section → submission id. */
  submission_ids: string;
  treatment_sheet_id: number;
  plan_of_care_id: number | null;
  submit_for_billing: number;
  summary_doc_url: string | null;
  short_summary_url: string | null;
  summary_status: string | null;
  summary_failure: string | null;
  soap_without_appointment: number;
  parent: string | null;
  data_carry_forward_from: string | null;
  created_at: string;
  updated_at: string;
  /** Migration 010: null until completion. */
  billing_status: string | null;
  /** Bumped by SoapNoteRepository.lockNote: the row lock that serialises status actions (migration 010). */
  row_lock: Generated<number>;
}

export interface SoapSignaturesTable {
  id: Generated<number>;
  organisation_id: number;
  context_id: string;
  role: string;
  user_id: number;
  content_hash: string;
  signed_at: string;
  revoked_at: string | null;
  revoked_reason: string | null;
}

export interface SoapNoteHistoryTable {
  id: Generated<number>;
  organisation_id: number;
  context_id: string;
  action: string;
  from_status: string | null;
  to_status: string;
  actor_user_id: number | null;
  at: string;
  /** JSON object. */
  details: string;
}

export interface TreatmentSheetsTable {
  id: Generated<number>;
  organisation_id: number;
  context_id: string;
  patient_id: number;
  /** JSON array of treatment lines. */
  treatments: string;
  created_at: string;
  updated_at: string;
}

export interface ClaimsTable {
  id: Generated<number>;
  organisation_id: number;
  context_id: string;
  patient_id: number;
  service_case_id: number | null;
  service_date: string;
  rendering_physician: number;
  /** JSON arrays. */
  diagnosis_codes: string;
  lines: string;
  status: string;
  created_at: string;
}

export interface PlansOfCareTable {
  id: Generated<number>;
  organisation_id: number;
  patient_id: number;
  /** The case id, or 0 for a patient's plan without a case. */
  case_key: number;
  source_context_id: string;
  /** JSON arrays. */
  diagnoses: string;
  goals: string;
  frequency_and_duration: string | null;
  certification_start: string;
  certification_end: string;
  version: number;
  created_at: string;
  updated_at: string;
}

export interface SoapDocumentsTable {
  organisation_id: number;
  context_id: string;
  variant: string;
  content_type: string;
  content: Uint8Array;
  created_at: string;
}

export interface FormSubmissionsTable {
  id: string;
  organisation_id: number;
  context_id: string;
  section: string;
  version: number;
  /** JSON document. */
  response: string;
  updated_at: string;
}

export interface IcdCodesTable {
  year: number;
  /** Without the dot. */
  code: string;
  order_number: number;
  billable: number;
  short_description: string;
  long_description: string;
  /** Ranks word matches: shorter descriptions first. */
  description_length: number;
}

/** Which rows serve each code-set year (migration 025): icd_codes and icd_words rows under storage_key. */
export interface IcdYearsTable {
  year: number;
  storage_key: number;
  codes: number;
  updated_at: string;
}

export interface IcdWordsTable {
  year: number;
  /** A folded word of the long description. */
  word: string;
  code: string;
  /** The code's long-description length, the search's ranking key (migration 012). */
  description_length: Generated<number>;
}

export interface BillingCodesTable {
  id: Generated<number>;
  organisation_id: number;
  code: string;
  description: string;
  timed: number;
  /** JSON arrays. */
  modifiers: string;
  specialities: string;
  note_types: string;
  payer_ids: string;
  active: number;
  created_at: string;
  updated_at: string;
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

export interface Database {
  jobs: JobsTable;
  locks: LocksTable;
  organisations: OrganisationsTable;
  clinics: ClinicsTable;
  providers: ProvidersTable;
  provider_clinics: ProviderClinicsTable;
  patients: PatientsTable;
  outbox: OutboxTable;
  rate_limit_counters: RateLimitCountersTable;
  appointment_categories: AppointmentCategoriesTable;
  cancellation_reasons: CancellationReasonsTable;
  organisation_specializations: OrganisationSpecializationsTable;
  appointments: AppointmentsTable;
  appointment_category_links: AppointmentCategoryLinksTable;
  appointment_history: AppointmentHistoryTable;
  referring_physicians: ReferringPhysiciansTable;
  insurance_cards: InsuranceCardsTable;
  cases: CasesTable;
  authorizations: AuthorizationsTable;
  webhook_subscriptions: WebhookSubscriptionsTable;
  webhook_deliveries: WebhookDeliveriesTable;
  webhook_attempts: WebhookAttemptsTable;
  notification_devices: NotificationDevicesTable;
  notifications: NotificationsTable;
  notification_pushes: NotificationPushesTable;
  notification_push_attempts: NotificationPushAttemptsTable;
  soap_notes: SoapNotesTable;
  form_submissions: FormSubmissionsTable;
  soap_signatures: SoapSignaturesTable;
  soap_note_history: SoapNoteHistoryTable;
  treatment_sheets: TreatmentSheetsTable;
  claims: ClaimsTable;
  plans_of_care: PlansOfCareTable;
  soap_documents: SoapDocumentsTable;
  icd_codes: IcdCodesTable;
  icd_words: IcdWordsTable;
  icd_years: IcdYearsTable;
  billing_codes: BillingCodesTable;
  staff: StaffTable;
  staff_clinics: StaffClinicsTable;
  provider_schedules: ProviderSchedulesTable;
  provider_blocks: ProviderBlocksTable;
  waitlist_requests: WaitlistRequestsTable;
  eligibility_checks: EligibilityChecksTable;
  waitlist_offers: WaitlistOffersTable;
  payers: PayersTable;
  api_clients: ApiClientsTable;
  audit_events: AuditEventsTable;
}

export const toDbTime = (d: Date): string => d.toISOString();
export const fromDbTime = (s: string): Date => new Date(s);
