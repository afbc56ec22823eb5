import type { Generated } from "kysely";

/** Amounts counted towards beneficiaries' Medicare therapy thresholds (migration 045). */
export interface TherapyChargesTable {
  id: Generated<number>;
  organisation_id: number;
  patient_id: number;
  year: number;
  /** PT_SLP or OT. */
  bucket: string;
  /** visit or elsewhere. */
  source: string;
  context_id: string | null;
  service_date: string;
  code: string | null;
  units: number;
  allowed_cents: number;
  /** 0 or 1. */
  priced: number;
  kx: number;
  description: string | null;
  recorded_by: number | null;
  created_at: string;
}

/** The Medicare domain's tables by name: its line in `Database` (schema.ts). */
export interface MedicareSchema {
  therapy_charges: TherapyChargesTable;
}
