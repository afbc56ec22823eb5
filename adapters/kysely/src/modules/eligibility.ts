import type { Generated } from "kysely";
import { defineKyselyModule } from "../kysely-module.js";
import { eligibilityChecksMigration } from "../migrations/031-eligibility-checks.js";
import { KyselyEligibilityCheckRepository } from "../repositories/eligibility-check-repository.js";

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

/** Eligibility checks of coverages. */
export const eligibilityKyselyModule = defineKyselyModule({
  key: "eligibility",
  repositories: (db, profile) => ({ eligibilityChecks: new KyselyEligibilityCheckRepository(db, profile) }),
  migrations: (profile) => ({ "031-eligibility-checks": eligibilityChecksMigration(profile) }),
  tables: ["eligibility_checks"],
});
