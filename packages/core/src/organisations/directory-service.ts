import { organisationError } from "./organisation-errors.js";
import { clinicAccess } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { ClinicSettings } from "./organisation-repository.js";
import type { Clock } from "../kernel/clock.js";
import type { Storage } from "../kernel/storage.js";
import type { OrganisationServiceRepositories } from "./organisation-service-repositories.js";
import { writeChange } from "./clinic-service.js";
import type { Clinic, Provider } from "./organisation.js";
import { findReachableClinic } from "./reachable-clinic.js";

const clinicNotFound = (id: unknown) =>
  organisationError("CLINIC_NOT_FOUND", "Clinic not found in this organisation", {
    issues: [{ field: "clinicId", reason: "does not exist in this organisation", value: id }],
  });

/** The organisation's clinics and providers as the other modules and the API read them. */
export class DirectoryService {
  constructor(private readonly deps: { storage: Storage<OrganisationServiceRepositories>; clock: Clock }) {}

  /** The clinics the principal's clinic restriction reaches (all of them when it has none). */
  async listClinics(principal: Principal): Promise<Clinic[]> {
    const access = clinicAccess(principal);
    const clinics = await this.deps.storage.repositories.organisations.listClinics(principal.organisationId);
    return clinics.filter((c) => access.canSee(c.id));
  }

  listProviders(principal: Principal): Promise<Provider[]> {
    return this.deps.storage.repositories.organisations.listProviders(principal.organisationId);
  }

  async getClinic(principal: Principal, clinicId: number): Promise<Clinic> {
    const clinic =
      Number.isSafeInteger(clinicId) && clinicId > 0
        ? await findReachableClinic(this.deps.storage.repositories, principal, clinicId)
        : undefined;
    if (!clinic) throw clinicNotFound(clinicId);
    return clinic;
  }

  /** Changes a clinic's settings: double booking, and warnings instead of refusals for visit limits. Omitted settings keep their values. */
  async updateClinicSettings(principal: Principal, clinicId: number, settings: ClinicSettings): Promise<Clinic> {
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const current =
        Number.isSafeInteger(clinicId) && clinicId > 0 ? await findReachableClinic(tx, principal, clinicId) : undefined;
      if (!current) throw clinicNotFound(clinicId);
      const next: Clinic = {
        ...current,
        allowDoubleBooking: settings.allowDoubleBooking ?? current.allowDoubleBooking,
        visitLimitWarningOnly: settings.visitLimitWarningOnly ?? current.visitLimitWarningOnly,
        updatedAt: now,
      };
      await writeChange(tx, current, next, now);
      return next;
    });
  }
}
