import { defineCoreModule } from "../modules/core-module.js";
import { EligibilityService } from "./eligibility-service.js";

/** Eligibility of patients' coverages: real-time checks through a gateway, history, results recorded by hand. */
export const eligibilityModule = defineCoreModule({
  key: "eligibility",
  createServices: ({ storage, clock, settings }) => ({
    eligibility: new EligibilityService({ storage, clock, gateway: settings.eligibilityGateway }),
  }),
  // Codes are public: never renamed or reused.
  errorCodes: [
    /** No real-time gateway, or no clearinghouse for the organisation: record results by hand on v1. */
    "ELIGIBILITY_NOT_CONFIGURED",
    /** The payer answered with AAA rejections (details.rejections: code, reason, follow_up; details.check_id). */
    "ELIGIBILITY_REJECTED",
    /** No answer within the timeout (CAQH CORE real-time: 20 s by default); details.check_id. */
    "ELIGIBILITY_TIMEOUT",
    /** The clearinghouse could not be reached or answered with an HTTP error; details.check_id. */
    "ELIGIBILITY_UNAVAILABLE",
    /** The answer was not a 271 for this inquiry; details.check_id. */
    "ELIGIBILITY_INVALID_RESPONSE",
  ] as const,
  events: {
    "coverage.eligibility_checked": {
      fields: ["organisation_id", "patient_id", "coverage_id", "eligibility_check_id"],
      description: "A coverage's eligibility was checked (real-time, whatever the outcome) or recorded by hand.",
    },
  } as const,
});
