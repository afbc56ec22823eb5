import type { Generated } from "kysely";

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

/** The appointments domain's tables by name: its line in `Database` (schema.ts). */
export interface AppointmentsSchema {
  appointments: AppointmentsTable;
  appointment_category_links: AppointmentCategoryLinksTable;
  appointment_history: AppointmentHistoryTable;
}
