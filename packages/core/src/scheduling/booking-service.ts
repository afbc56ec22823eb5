import type { AppointmentDraft } from "../appointments/appointment.js";
import type { PaymentMode } from "../cases/payment-mode.js";
import {
  type AppointmentOutcome,
  AppointmentService,
  type PlacementCheck,
} from "../appointments/appointment-service.js";
import { hasAnyScope, type Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import type { Storage } from "../kernel/storage.js";
import type { SchedulingServiceRepositories } from "./scheduling-service-repositories.js";
import { insideWorkingHours, slotStillFree } from "./placement.js";

/** Scopes that may book outside working hours and inside blocks (never over another appointment). */
export const WORKING_HOURS_OVERRIDE_SCOPES = Object.freeze(["appointments:override", "admin"]);

/** A v2 booking (spec 4.7 POST /v2/appointments): provider ids, one appointment type, a slot or a start. */
export interface SchedulingBookingRequest {
  patientId: number;
  /** The provider's v2 id (providers.id). */
  providerId: number;
  clinicId: number;
  appointmentTypeId: number;
  /** A start GET /v2/slots offered: refused with SLOT_UNAVAILABLE when it was taken in between. */
  slotStart?: Date | undefined;
  /** Or a free start: refused with OUTSIDE_WORKING_HOURS outside working hours unless the caller may override. */
  start?: Date | undefined;
  /** Default: start plus the appointment type's duration. */
  end?: Date | undefined;
  paymentMode: PaymentMode;
  serviceCaseId?: number | null | undefined;
  teleHealthUrl?: string | null | undefined;
  comments?: string | null | undefined;
  appointmentNotes?: string | null | undefined;
}

/**
 * Booking by provider and appointment type against working hours: the scheduling view of the one appointment
 * domain. It resolves the provider's doctor id and the type's duration, then books through AppointmentService with
 * a placement check, so v1 and v2 bookings are the same rows, rules, events and visit tracking.
 */
export class SchedulingBookingService {
  // AppointmentService holds nothing but its dependencies: this one is the same service as practice.appointments.
  private readonly appointments: AppointmentService<SchedulingServiceRepositories>;

  constructor(private readonly deps: { storage: Storage<SchedulingServiceRepositories>; clock: Clock }) {
    this.appointments = new AppointmentService(deps);
  }

  async book(principal: Principal, request: SchedulingBookingRequest): Promise<AppointmentOutcome> {
    const issues: ValidationIssue[] = [];
    if ((request.slotStart === undefined) === (request.start === undefined))
      issues.push({ field: "startsAt", reason: "give slot_start or start (one of them)" });
    if (request.slotStart !== undefined && request.end !== undefined)
      issues.push({ field: "endsAt", reason: "a slot's end follows from the appointment type: leave end out" });
    for (const [field, d] of [
      ["startsAt", request.slotStart ?? request.start],
      ["endsAt", request.end],
    ] as const)
      if (d !== undefined && Number.isNaN(d.getTime())) issues.push({ field, reason: "must be a date-time" });
    if (issues.length > 0) throw DomainError.validation(issues);

    const r = this.deps.storage.repositories;
    const organisationId = principal.organisationId;
    const [provider, type] = await Promise.all([
      r.organisations.findProviderById(organisationId, request.providerId),
      r.catalog.findAppointmentCategory(organisationId, request.appointmentTypeId),
    ]);
    const missing = "does not exist in this organisation";
    if (!provider) issues.push({ field: "doctorId", reason: missing, value: request.providerId });
    if (!type) issues.push({ field: "categoryIds", reason: missing, value: request.appointmentTypeId });
    if (issues.length > 0) throw DomainError.unknownReference(issues);
    const startsAt = (request.slotStart ?? request.start) as Date;
    const draft: AppointmentDraft = {
      patientId: request.patientId,
      doctorId: provider!.userId,
      clinicId: request.clinicId,
      categoryIds: [type!.id],
      startsAt,
      endsAt: request.end ?? new Date(startsAt.getTime() + type!.durationMinutes * 60_000),
      paymentMode: request.paymentMode,
      serviceCaseId: request.serviceCaseId ?? null,
      teleHealthUrl: request.teleHealthUrl ?? null,
      comments: request.comments ?? null,
      appointmentNotes: request.appointmentNotes ?? null,
    };
    const placement: PlacementCheck<SchedulingServiceRepositories> =
      request.slotStart !== undefined
        ? slotStillFree(this.deps.clock)
        : insideWorkingHours(this.deps.clock, hasAnyScope(principal, WORKING_HOURS_OVERRIDE_SCOPES));
    return this.appointments.book(principal, draft, { placement });
  }
}
