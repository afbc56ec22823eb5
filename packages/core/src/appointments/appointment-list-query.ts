import { DomainError } from "../kernel/domain-error.js";
import { toPageWindow } from "../kernel/paging.js";
import type { AppointmentListCriteria } from "./appointment-repository.js";
import { APPOINTMENT_STATUSES, type AppointmentStatus } from "./appointment.js";

/** What a list can be sorted by (then by id, in the same direction). */
export const APPOINTMENT_SORT_FIELDS = ["start", "created_at", "updated_at"] as const;
export type AppointmentSortField = (typeof APPOINTMENT_SORT_FIELDS)[number];

/** Bounds of GET /apis/v1/appointments. */
export const APPOINTMENT_LIST_LIMITS = Object.freeze({ defaultSize: 20, maxSize: 100 });

/** The list request in domain terms; times are instants (v1 sends Unix seconds). */
export interface AppointmentListQuery {
  page?: number | undefined;
  size?: number | undefined;
  from?: Date | undefined;
  to?: Date | undefined;
  doctorId?: number | undefined;
  clinicId?: number | undefined;
  patientId?: number | undefined;
  statuses?: string[] | undefined;
  categoryId?: number | undefined;
  serviceCaseId?: number | undefined;
  /** Default: by start, ascending. */
  sort?: AppointmentSortField | undefined;
  order?: "asc" | "desc" | undefined;
}

const invalid = DomainError.invalidParameter;

/** Applies defaults and refuses anything out of bounds with INVALID_PARAMETER naming the parameter. */
export function toAppointmentListCriteria(organisationId: number, q: AppointmentListQuery): AppointmentListCriteria {
  const { limit, offset } = toPageWindow(q.page, q.size, APPOINTMENT_LIST_LIMITS);
  if (q.from && q.to && q.from.getTime() >= q.to.getTime())
    throw invalid("from", Math.floor(q.from.getTime() / 1000), "must be before to");
  for (const [name, v] of [
    ["doctor_id", q.doctorId],
    ["clinic_id", q.clinicId],
    ["patient_id", q.patientId],
    ["category_id", q.categoryId],
    ["service_case_id", q.serviceCaseId],
  ] as const) {
    if (v !== undefined && (!Number.isSafeInteger(v) || v < 1)) throw invalid(name, v, "must be a positive integer");
  }
  const statuses = q.statuses?.map((s) => s.trim().toUpperCase());
  const unknown = statuses?.find((s) => !APPOINTMENT_STATUSES.includes(s as AppointmentStatus));
  if (unknown !== undefined)
    throw invalid("status", unknown, `must be one or more of ${APPOINTMENT_STATUSES.join(", ")} (comma-separated)`);
  if (q.sort !== undefined && !APPOINTMENT_SORT_FIELDS.includes(q.sort))
    throw invalid("sort", q.sort, `must be one of ${APPOINTMENT_SORT_FIELDS.join(", ")}`);
  if (q.order !== undefined && q.order !== "asc" && q.order !== "desc")
    throw invalid("order", q.order, "must be asc or desc");
  return {
    organisationId,
    startsFrom: q.from,
    startsBefore: q.to,
    doctorId: q.doctorId,
    clinicId: q.clinicId,
    patientId: q.patientId,
    statuses: statuses as AppointmentStatus[] | undefined,
    categoryId: q.categoryId,
    serviceCaseId: q.serviceCaseId,
    sort: q.sort ?? "start",
    descending: q.order === "desc",
    limit,
    offset,
  };
}
