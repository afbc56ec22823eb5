import { defineCoreModule } from "../modules/core-module.js";
import { CatalogAdminService } from "./catalog-admin-service.js";
import { CatalogService } from "./catalog-service.js";

/** The organisation's appointment categories and cancellation reasons. */
export const catalogModule = defineCoreModule({
  key: "catalog",
  createServices: ({ storage, clock }) => ({
    catalog: new CatalogService({ storage }),
    catalogAdmin: new CatalogAdminService({ storage, clock }),
  }),
  // Codes are public: never renamed or reused.
  errorCodes: [
    /** The appointment type (category) does not exist in the caller's organisation. */
    "APPOINTMENT_TYPE_NOT_FOUND",
    /** Another appointment type of the organisation has this name (details.existing_appointment_type_id). */
    "DUPLICATE_APPOINTMENT_TYPE",
    /** The cancellation reason does not exist in the caller's organisation. */
    "CANCELLATION_REASON_NOT_FOUND",
    /** Another cancellation reason of the organisation has this key (details.existing_cancellation_reason_id). */
    "DUPLICATE_CANCELLATION_REASON",
  ] as const,
  events: {},
});
