import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { StaffRepository } from "./staff-repository.js";
import type { StaffServiceRepositories } from "./staff-service-repositories.js";
import { STAFF_EVENTS } from "./staff-events.js";
import { STAFF_ERROR_CODES } from "./staff-errors.js";
import { StaffService } from "./staff-service.js";

/** The practice's staff (spec 4.7 /v2/staff): people who work there without treating patients. */
export const staffModule = defineCoreModule({
  key: "staff",
  repositories: owns<{ staff: StaffRepository }>(),
  createServices: ({ storage, clock }: ModuleDependencies<StaffServiceRepositories>) => ({
    staff: new StaffService({ storage, clock }),
  }),
  errorCodes: STAFF_ERROR_CODES,
  events: STAFF_EVENTS,
});
