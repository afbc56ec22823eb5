import { systemError } from "../kernel/system-errors.js";
import type { Principal } from "./principal.js";

/**
 * What a principal's clinic restriction (claim clinic_id_list) lets it reach. Clinic-scoped records (appointments,
 * schedules, SOAP notes and what hangs off them, waitlist requests and offers, the clinics themselves) are reached
 * only at the listed clinics; a record at another clinic answers as if it did not exist (docs/authentication.md,
 * "Clinic restrictions"). An empty list is no restriction. Services ask here rather than reading `clinicIds`, so
 * every route and every embedder calling core gets the same rule.
 */
export interface ClinicAccess {
  /** The clinics the principal is restricted to, in ascending order; undefined when it is not restricted. */
  readonly only: readonly number[] | undefined;
  /** True when the principal may reach a record of this clinic (a record of no clinic: only when unrestricted). */
  canSee(clinicId: number | null | undefined): boolean;
  /** True when one of the clinics is within reach (a provider's or a staff member's clinics, a request's). */
  canSeeAny(clinicIds: readonly number[]): boolean;
  /** True when every one of the clinics is within reach (no clinic at all included). */
  canSeeAll(clinicIds: readonly number[]): boolean;
}

const UNRESTRICTED: ClinicAccess = Object.freeze({
  only: undefined,
  canSee: () => true,
  canSeeAny: () => true,
  canSeeAll: () => true,
});

export function clinicAccess(principal: Pick<Principal, "clinicIds">): ClinicAccess {
  if (principal.clinicIds.length === 0) return UNRESTRICTED;
  const only = Object.freeze([...new Set(principal.clinicIds)].sort((a, b) => a - b));
  const allowed = new Set(only);
  const canSee = (clinicId: number | null | undefined) => clinicId != null && allowed.has(clinicId);
  return Object.freeze({
    only,
    canSee,
    canSeeAny: (clinicIds: readonly number[]) => clinicIds.some(canSee),
    canSeeAll: (clinicIds: readonly number[]) => clinicIds.every(canSee),
  });
}

/**
 * Refuses (403 INSUFFICIENT_PERMISSIONS) a principal restricted to clinics that writes a record bound to clinics
 * (an API client, a provider, a staff member) whose clinics are not all within its own. A record of no clinic
 * reaches the whole organisation (an API client without clinic_ids is unrestricted), so it is wider too: a
 * restricted administrator cannot widen itself through a record it may change.
 */
export function assertWithinCallerClinics(principal: Principal, clinicIds: readonly number[], record: string): void {
  const only = clinicAccess(principal).only;
  if (!only || (clinicIds.length > 0 && clinicAccess(principal).canSeeAll(clinicIds))) return;
  throw systemError(
    "INSUFFICIENT_PERMISSIONS",
    `A caller restricted to clinics can only write ${record} restricted to some of its own clinics`,
    { allowed_clinic_ids: [...only] },
  );
}
