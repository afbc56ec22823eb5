import type { Appointment, AppointmentRecord, AppointmentStatus, PaymentMode } from "@openpractice/core";
import type { Insertable, Selectable } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { AppointmentsTable } from "../tables/appointments.js";

const nullableNumber = (v: number | string | null): number | null => (v === null ? null : Number(v));

/** Columns written by insert and update (everything but id and the references that never change after booking). */
export function appointmentMutableColumns(a: AppointmentRecord) {
  const c = a.cancellation;
  return {
    starts_at: toDbTime(a.startsAt),
    ends_at: toDbTime(a.endsAt),
    status: a.status,
    cancellation_reason_key: c?.reasonKey ?? null,
    cancellation_reason_label: c?.reasonLabel ?? null,
    cancellation_reason_comment: c?.comment ?? null,
    cancellation_fee: c ? c.fee : null,
    cancelled_at: c ? toDbTime(c.cancelledAt) : null,
    cancelled_by: c?.cancelledBy ?? null,
    updated_at: toDbTime(a.updatedAt),
  };
}

export function appointmentToRow(a: AppointmentRecord): Insertable<AppointmentsTable> {
  return {
    organisation_id: a.organisationId,
    patient_id: a.patientId,
    doctor_id: a.doctorId,
    clinic_id: a.clinicId,
    payment_mode: a.paymentMode,
    service_case_id: a.serviceCaseId,
    tele_health_url: a.teleHealthUrl,
    comments: a.comments,
    appointment_notes: a.appointmentNotes,
    created_by: a.createdBy,
    created_at: toDbTime(a.createdAt),
    version: a.version,
    ...appointmentMutableColumns(a),
  };
}

export function rowToAppointment(r: Selectable<AppointmentsTable>, categoryIds: number[]): Appointment {
  return {
    id: Number(r.id),
    organisationId: Number(r.organisation_id),
    patientId: Number(r.patient_id),
    doctorId: Number(r.doctor_id),
    clinicId: Number(r.clinic_id),
    categoryIds,
    startsAt: fromDbTime(r.starts_at),
    endsAt: fromDbTime(r.ends_at),
    paymentMode: r.payment_mode as PaymentMode,
    serviceCaseId: nullableNumber(r.service_case_id),
    teleHealthUrl: r.tele_health_url,
    comments: r.comments,
    appointmentNotes: r.appointment_notes,
    status: r.status as AppointmentStatus,
    cancellation:
      r.cancellation_reason_key === null
        ? null
        : {
            reasonKey: r.cancellation_reason_key,
            reasonLabel: r.cancellation_reason_label ?? "",
            comment: r.cancellation_reason_comment,
            // numeric comes back as a string on PostgreSQL and MySQL.
            fee: Number(r.cancellation_fee ?? 0),
            cancelledAt: fromDbTime(r.cancelled_at ?? r.updated_at),
            cancelledBy: nullableNumber(r.cancelled_by),
          },
    createdBy: nullableNumber(r.created_by),
    createdAt: fromDbTime(r.created_at),
    updatedAt: fromDbTime(r.updated_at),
    version: Number(r.version),
  };
}
