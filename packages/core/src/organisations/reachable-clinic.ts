import { clinicAccess } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { OrganisationRepository } from "./organisation-repository.js";
import type { Clinic } from "./organisation.js";

/**
 * The clinic a write names, when the organisation has it and the principal's clinic restriction reaches it; else
 * undefined, which every caller answers as it answers an unknown clinic, so a restricted caller learns nothing of
 * the organisation's other clinics.
 */
export async function findReachableClinic(
  r: { organisations: Pick<OrganisationRepository, "findClinic"> },
  principal: Principal,
  clinicId: number,
): Promise<Clinic | undefined> {
  if (!clinicAccess(principal).canSee(clinicId)) return undefined;
  return r.organisations.findClinic(principal.organisationId, clinicId);
}
