import type { Generated } from "kysely";

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

/** The cases domain's tables by name: its line in `Database` (schema.ts). */
export interface CasesSchema {
  referring_physicians: ReferringPhysiciansTable;
  insurance_cards: InsuranceCardsTable;
  cases: CasesTable;
  authorizations: AuthorizationsTable;
}
