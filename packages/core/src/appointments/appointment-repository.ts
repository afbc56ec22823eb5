import type { Appointment, AppointmentHistoryEntry, AppointmentStatus } from "./appointment.js";

/** An appointment as stored: everything but the generated id. */
export type AppointmentRecord = Omit<Appointment, "id">;

/** Time an appointment holds in a doctor's day. */
export interface HeldTime {
  doctorId: number;
  clinicId: number;
  startsAt: Date;
  endsAt: Date;
}

export interface AppointmentListCriteria {
  organisationId: number;
  /** Inclusive lower and exclusive upper bounds on the start time. */
  startsFrom?: Date | undefined;
  startsBefore?: Date | undefined;
  doctorId?: number | undefined;
  clinicId?: number | undefined;
  /** Only records at one of these clinics (a clinic restriction, auth/clinic-access.ts); never empty; undefined: any. */
  inClinics?: readonly number[] | undefined;
  patientId?: number | undefined;
  serviceCaseId?: number | undefined;
  statuses?: AppointmentStatus[] | undefined;
  /** Appointments that include this category. */
  categoryId?: number | undefined;
  /** Default: start; ties are broken by id, in the same direction. */
  sort?: "start" | "created_at" | "updated_at" | undefined;
  descending?: boolean | undefined;
  limit: number;
  offset: number;
}

/**
 * Appointments of every organisation; every method is scoped by organisation id.
 *
 * Booking contract: `lockDoctorSchedule` must be the first call of a booking or
 * reschedule transaction. It takes a write lock on the doctor's provider row
 * that is held until the transaction ends, so two transactions booking the same
 * doctor run one after the other, and the second one's `findOverlapping` sees
 * the first one's committed appointment (on engines with snapshot reads the
 * lock is taken before the snapshot, which is why it comes first).
 */
export interface AppointmentRepository {
  /** Locks the doctor's schedule (see above). false when the organisation has no such provider; nothing is locked then. */
  lockDoctorSchedule(organisationId: number, doctorId: number): Promise<boolean>;

  /** An appointment of the doctor in one of `statuses` overlapping [startsAt, endsAt) (touching ends do not overlap), other than `exceptId`. */
  findOverlapping(query: {
    organisationId: number;
    doctorId: number;
    startsAt: Date;
    endsAt: Date;
    statuses: readonly AppointmentStatus[];
    exceptId?: number | undefined;
  }): Promise<Appointment | undefined>;

  /** Stores the appointment and its categories; the doctor must be a provider of the organisation (else it throws). categoryIds come back ascending, here and in every read. */
  insert(record: AppointmentRecord): Promise<Appointment>;

  findById(organisationId: number, id: number): Promise<Appointment | undefined>;

  /**
   * Writes status, times, cancellation and updatedAt of an existing appointment
   * (categories and references never change) if its stored version is still
   * `appointment.version`, and stores version + 1. false when another writer got
   * there first (nothing written); the caller re-reads and decides again.
   */
  update(appointment: Appointment): Promise<boolean>;

  /** Sorted by `sort` (default start time), then id, ascending unless `descending`; total counts every match. */
  list(criteria: AppointmentListCriteria): Promise<{ appointments: Appointment[]; total: number }>;

  /**
   * The times held by the doctors' appointments in `statuses` that start in [startsFrom, startsBefore): just the
   * times and the clinic, for slot searches (no count, no categories), in no particular order.
   */
  listHeldTimes(query: {
    organisationId: number;
    doctorIds: readonly number[];
    startsFrom: Date;
    startsBefore: Date;
    statuses: readonly AppointmentStatus[];
  }): Promise<HeldTime[]>;

  appendHistory(entry: AppointmentHistoryEntry): Promise<void>;

  /** The appointment's audit trail, oldest first. */
  history(organisationId: number, appointmentId: number): Promise<AppointmentHistoryEntry[]>;
}
