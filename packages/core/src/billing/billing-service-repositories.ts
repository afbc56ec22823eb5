import type { AppointmentRepository } from "../appointments/appointment-repository.js";
import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { BillingCodeRepository } from "./billing-code-repository.js";
import type { ClaimRepository } from "./billing-gateway.js";
import type { FeeScheduleRepository } from "./fee-schedule-repository.js";

/** The repositories the billing-code catalogue and the stored claims read and write through: each a port of the feature that owns it. */
export interface BillingServiceRepositories {
  billingCodes: BillingCodeRepository;
  feeSchedules: FeeScheduleRepository;
  claims: ClaimRepository;
  appointments: AppointmentRepository;
  organisations: OrganisationRepository;
}
