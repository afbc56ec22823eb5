import type { PaymentMode } from "../cases/payment-mode.js";

/** Appointment statuses (spec 3.4 leaves the set open; docs/appointments.md documents this one). */
export const APPOINTMENT_STATUSES = [
  "SCHEDULED",
  "CHECKED_IN",
  "IN_PROGRESS",
  "CHECKED_OUT",
  "CANCELLED",
  "NO_SHOW",
] as const;
export type AppointmentStatus = (typeof APPOINTMENT_STATUSES)[number];

/** The cancellation recorded on a cancelled appointment. */
export interface AppointmentCancellation {
  reasonKey: string;
  reasonLabel: string;
  comment: string | null;
  fee: number;
  cancelledAt: Date;
  cancelledBy: number | null;
}

export interface Appointment {
  id: number;
  organisationId: number;
  patientId: number;
  /** The provider's user id (the `doctor_id` of the v1 contract). */
  doctorId: number;
  clinicId: number;
  categoryIds: number[];
  startsAt: Date;
  endsAt: Date;
  paymentMode: PaymentMode;
  serviceCaseId: number | null;
  teleHealthUrl: string | null;
  comments: string | null;
  appointmentNotes: string | null;
  status: AppointmentStatus;
  cancellation: AppointmentCancellation | null;
  createdBy: number | null;
  createdAt: Date;
  updatedAt: Date;
  /** Starts at 1; every stored change adds 1 (optimistic concurrency, see AppointmentRepository.update). */
  version: number;
}

/** What a caller sends to book: the references, times and payment mode; the rest is optional. */
export type AppointmentDraft = Pick<
  Appointment,
  "patientId" | "doctorId" | "clinicId" | "categoryIds" | "startsAt" | "endsAt" | "paymentMode"
> &
  Partial<Pick<Appointment, "serviceCaseId" | "teleHealthUrl" | "comments" | "appointmentNotes">>;

export interface CancellationRequest {
  reasonKey: string;
  /** What the patient was told; defaults to the reason's label (v2 sends only the key). */
  reasonLabel?: string | undefined;
  comment?: string | null;
  /** Defaults to the reason's configured fee. */
  fee?: number;
}

/** One row of an appointment's audit trail: every status change and reschedule. */
export interface AppointmentHistoryEntry {
  organisationId: number;
  appointmentId: number;
  action: string;
  fromStatus: AppointmentStatus | null;
  toStatus: AppointmentStatus;
  startsAt: Date;
  endsAt: Date;
  byUserId: number | null;
  at: Date;
}
