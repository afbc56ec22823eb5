import { defineCoreModule } from "../modules/core-module.js";
import { PayerService } from "./payer-service.js";

/** The payer registry (spec 4.7 GET /v2/payers) and organisations' own payers. */
export const payersModule = defineCoreModule({
  key: "payers",
  createServices: ({ storage, clock }) => ({ payers: new PayerService({ storage, clock }) }),
  // Codes are public: never renamed or reused.
  errorCodes: [
    /** No such payer in the registry or the caller's organisation. */
    "PAYER_NOT_FOUND",
    /** The registry or the organisation already has this payer id (details.existing_payer_ref). */
    "DUPLICATE_PAYER",
  ] as const,
  events: {},
});
