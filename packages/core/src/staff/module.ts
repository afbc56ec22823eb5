import { defineCoreModule } from "../modules/core-module.js";
import { StaffService } from "./staff-service.js";

/** The practice's staff (spec 4.7 /v2/staff): people who work there without treating patients. */
export const staffModule = defineCoreModule({
  key: "staff",
  createServices: ({ storage, clock }) => ({ staff: new StaffService({ storage, clock }) }),
  // Codes are public: never renamed or reused.
  errorCodes: [
    /** The staff member does not exist in the caller's organisation (other organisations' included). */
    "STAFF_NOT_FOUND",
    /** Another staff member of the organisation has this email (details.existing_staff_id). */
    "DUPLICATE_STAFF_EMAIL",
  ] as const,
  events: {
    "staff.created": { fields: ["organisation_id", "staff_id"], description: "A staff member was added." },
    "staff.updated": {
      fields: ["organisation_id", "staff_id"],
      description: "A staff member's record changed (or they were reactivated).",
    },
    "staff.deactivated": {
      fields: ["organisation_id", "staff_id"],
      description: "A staff member was deactivated (DELETE); the record stays.",
    },
  } as const,
});
