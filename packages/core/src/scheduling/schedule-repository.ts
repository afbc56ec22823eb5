import type { ProviderSchedule } from "./provider-schedule.js";

/**
 * Providers' schedules, scoped by organisation (another organisation's schedule is invisible). Writes of one
 * provider's schedules run under that provider's lock (AppointmentRepository.lockDoctorSchedule), which is what
 * keeps two concurrent overlapping shifts from both being stored.
 */
export interface ScheduleRepository {
  insert(schedule: Omit<ProviderSchedule, "id">): Promise<ProviderSchedule>;
  findById(organisationId: number, id: number): Promise<ProviderSchedule | undefined>;
  /** The providers' schedules in force on or after `from` (no end, or an end on or after it), oldest first. */
  listInForce(organisationId: number, providerIds: readonly number[], from: string): Promise<ProviderSchedule[]>;
  /** A page of the provider's schedules by effective_from then id, newest first, and the count of all matches. */
  list(
    organisationId: number,
    providerId: number,
    filter: {
      clinicId?: number | undefined;
      /** Only schedules at one of these clinics (a clinic restriction); never empty; undefined: any. */
      inClinics?: readonly number[] | undefined;
      endingOnOrAfter?: string | undefined;
      limit: number;
      offset: number;
    },
  ): Promise<{ schedules: ProviderSchedule[]; total: number }>;
  /** Ends a schedule: sets effective_until and replaced_by_id (replaced ones only) and updated_at. */
  end(
    organisationId: number,
    id: number,
    effectiveUntil: string,
    replacedById: number | null,
    now: Date,
  ): Promise<void>;
}
