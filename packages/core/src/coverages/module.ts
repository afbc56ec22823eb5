import { defineCoreModule } from "../modules/core-module.js";
import { CoverageService } from "./coverage-service.js";

const COVERAGE_FIELDS = ["organisation_id", "patient_id", "coverage_id"] as const;

/** Patients' coverages (spec 4.7 v2): the insurance cards of v1, with the rest of a coverage's fields. */
export const coveragesModule = defineCoreModule({
  key: "coverages",
  createServices: ({ storage, clock }) => ({ coverages: new CoverageService({ storage, clock }) }),
  // Codes are public: never renamed or reused.
  errorCodes: [
    /** No such coverage of this patient in the caller's organisation (or it was deleted). */
    "COVERAGE_NOT_FOUND",
    /** The coverage is used by open cases (details.service_case_ids): discharge them or take it off them first. */
    "COVERAGE_IN_USE",
  ] as const,
  events: {
    "coverage.created": { fields: COVERAGE_FIELDS, description: "A coverage (insurance card) was added to a patient." },
    "coverage.updated": { fields: COVERAGE_FIELDS, description: "A coverage changed." },
    "coverage.deleted": { fields: COVERAGE_FIELDS, description: "A coverage was deleted." },
  } as const,
});
