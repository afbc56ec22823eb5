import { appointmentEvent } from "./appointment-events.js";
import { caseError } from "../cases/case-errors.js";
import { appointmentError } from "./appointment-errors.js";
import { systemError } from "../kernel/system-errors.js";
import { clinicAccess } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { type Storage, readsFor } from "../kernel/storage.js";
import type { AppointmentServiceRepositories } from "./appointment-service-repositories.js";
import type { Appointment, AppointmentDraft, AppointmentHistoryEntry, CancellationRequest } from "./appointment.js";
import { toAppointmentListCriteria, type AppointmentListQuery } from "./appointment-list-query.js";
import {
  assertValidAppointmentDraft,
  assertValidAppointmentTimes,
  assertValidCancellation,
} from "./appointment-rules.js";
import { caseNotFound } from "../cases/case-service.js";
import { queueFreedTime } from "./freed-time.js";
import { caseVisitReader } from "../cases/case-visits.js";
import { serviceCaseId } from "../kernel/service-case-id.js";
import type { PatientCase } from "../cases/patient-case.js";
import { localDate, visitProblems, type VisitProblem } from "../cases/visit-tracking.js";
import type { Clinic, Provider } from "../organisations/organisation.js";
import { findReachableClinic } from "../organisations/reachable-clinic.js";
import {
  allowedActions,
  findTransition,
  SLOT_HOLDING_STATUSES,
  type AppointmentAction,
  type AppointmentTransition,
} from "./appointment-state-machine.js";

/** A booking or a change, with the visit-limit warnings of a clinic that warns instead of refusing. */
export interface AppointmentOutcome {
  appointment: Appointment;
  warnings: VisitProblem[];
}

export interface AppointmentPage {
  appointments: Appointment[];
  total: number;
  page: number;
  size: number;
}

/** Where a booking lands: the provider and clinic it names and its times (for a PlacementCheck). */
export interface Placement {
  organisationId: number;
  provider: Provider;
  clinic: Clinic;
  startsAt: Date;
  endsAt: Date;
}

/**
 * A rule on where an appointment may be booked, checked inside the booking's transaction once the doctor's
 * schedule is locked and the references are known, before the double-booking check (v2 checks working hours
 * and named slots with one: scheduling/placement.ts). It throws to refuse.
 */
export type PlacementCheck<R extends AppointmentServiceRepositories = AppointmentServiceRepositories> = (
  tx: R,
  placement: Placement,
) => Promise<void>;

/** `R`: the repositories of the booking's transaction, as the service that books sees them (scheduling's, say). */
export interface BookOptions<R extends AppointmentServiceRepositories = AppointmentServiceRepositories> {
  placement?: PlacementCheck<R> | undefined;
  /** Runs in the booking's transaction after the appointment is stored (the waitlist marks its offer accepted). */
  onBooked?: ((tx: R, appointment: Appointment) => Promise<void>) | undefined;
}

/** What an action needs besides the appointment: new times for RESCHEDULE, the reason for CANCEL. */
export type ActionInput =
  | { action: "CHECK_IN" | "START" | "CHECK_OUT" | "NO_SHOW" }
  | { action: "RESCHEDULE"; startsAt: Date; endsAt: Date }
  | { action: "CANCEL"; cancellation: CancellationRequest };

const notFound = (id: unknown) =>
  appointmentError("APPOINTMENT_NOT_FOUND", "Appointment not found", { appointment_id: id });

const unknownReference = DomainError.unknownReference;

/** Another writer changed the appointment between our read and our write; the whole unit of work is retried. */
class LostUpdate extends Error {}

function eventData(a: Appointment) {
  return {
    organisation_id: a.organisationId,
    appointment_id: a.id,
    patient_id: a.patientId,
    service_case_id: serviceCaseId(a.serviceCaseId),
    clinic_id: a.clinicId,
  };
}

function historyEntry(
  a: Appointment,
  action: string,
  fromStatus: Appointment["status"] | null,
  by: number | null,
  at: Date,
): AppointmentHistoryEntry {
  return {
    organisationId: a.organisationId,
    appointmentId: a.id,
    action,
    fromStatus,
    toStatus: a.status,
    startsAt: a.startsAt,
    endsAt: a.endsAt,
    byUserId: by,
    at,
  };
}

/**
 * Booking, reading, listing and the status changes of appointments, scoped to
 * the principal's organisation. Every change writes its event and its audit
 * row in the same transaction as the change.
 */
export class AppointmentService<R extends AppointmentServiceRepositories = AppointmentServiceRepositories> {
  constructor(private readonly deps: { storage: Storage<R>; clock: Clock }) {}

  /** Refuses a slot the doctor already holds (unless the clinic allows double booking). Call after lockDoctorSchedule. */
  private async assertSlotFree(
    tx: R,
    a: { organisationId: number; doctorId: number; clinicId: number; startsAt: Date; endsAt: Date },
    exceptId?: number,
  ): Promise<void> {
    const clinic = await tx.organisations.findClinic(a.organisationId, a.clinicId);
    if (clinic?.allowDoubleBooking) return;
    const clash = await tx.appointments.findOverlapping({ ...a, statuses: SLOT_HOLDING_STATUSES, exceptId });
    if (clash) {
      throw appointmentError("SCHEDULE_CONFLICT", `The doctor already has appointment ${clash.id} at that time`, {
        conflicting_appointment_id: clash.id,
        conflicting_timestamp: Math.floor(clash.startsAt.getTime() / 1000),
        conflicting_end_timestamp: Math.floor(clash.endsAt.getTime() / 1000),
      });
    }
  }

  /**
   * On a case that tracks visits, refuses (or, when the clinic says so, warns
   * about) a visit over the case's limit or its authorization's, or outside
   * every authorization window. Call after lockForVisits of the case.
   */
  private async checkVisits(
    tx: R,
    clinic: Clinic,
    c: PatientCase | undefined,
    startsAt: Date,
    exceptId?: number,
  ): Promise<VisitProblem[]> {
    if (!c || !c.visitTrackRequired) return [];
    const [authorizations, reader] = await Promise.all([
      tx.authorizations.listByCase(c.organisationId, c.id),
      caseVisitReader(tx, c.organisationId),
    ]);
    const visits = (await reader.visitsOf(c.id)).filter((v) => v.appointmentId !== exceptId);
    const today = this.deps.clock.now().toISOString().slice(0, 10);
    const problems = visitProblems(
      c,
      authorizations,
      visits,
      localDate(startsAt, clinic.timeZone),
      today,
      reader.zoneOf,
    );
    const first = problems[0];
    if (first && !clinic.visitLimitWarningOnly) throw caseError(first.code, first.message, first.details);
    return problems;
  }

  /** Books an appointment (status SCHEDULED) and emits appointment.created. */
  async book(principal: Principal, draft: AppointmentDraft, options: BookOptions<R> = {}): Promise<AppointmentOutcome> {
    assertValidAppointmentDraft(draft);
    const orgId = principal.organisationId;
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      // First statement of the unit of work (see AppointmentRepository): serialises bookings of this doctor.
      const doctorKnown = await tx.appointments.lockDoctorSchedule(orgId, draft.doctorId);
      // Then the case's (same order everywhere: doctor, then case), so its visits are counted one booking at a time.
      const caseKnown = draft.serviceCaseId != null && (await tx.cases.lockForVisits(orgId, draft.serviceCaseId));
      const [patient, clinic, provider, categories, patientCase] = await Promise.all([
        tx.patients.findById(orgId, draft.patientId),
        findReachableClinic(tx, principal, draft.clinicId),
        doctorKnown ? tx.organisations.findProvider(orgId, draft.doctorId) : undefined,
        tx.catalog.listAppointmentCategories(orgId),
        caseKnown ? tx.cases.findById(orgId, draft.serviceCaseId as number) : undefined,
      ]);
      const issues: ValidationIssue[] = [];
      const missing = "does not exist in this organisation";
      if (!patient) issues.push({ field: "patientId", reason: missing, value: draft.patientId });
      if (!provider) issues.push({ field: "doctorId", reason: missing, value: draft.doctorId });
      if (!clinic) issues.push({ field: "clinicId", reason: missing, value: draft.clinicId });
      const unknownCategories = draft.categoryIds.filter((id) => !categories.some((c) => c.id === id));
      if (unknownCategories.length)
        issues.push({
          field: "categoryIds",
          reason: `${unknownCategories.join(", ")} ${unknownCategories.length === 1 ? "does" : "do"} not exist in this organisation`,
          value: unknownCategories,
        });
      if (draft.serviceCaseId != null && patientCase?.patientId !== draft.patientId)
        issues.push({ field: "serviceCaseId", reason: "no such case for this patient", value: draft.serviceCaseId });
      if (issues.length) throw unknownReference(issues);
      const inactive = draft.categoryIds.filter((id) => categories.some((c) => c.id === id && !c.active));
      if (inactive.length)
        throw DomainError.validation([
          { field: "categoryIds", reason: `${inactive.join(", ")}: inactive appointment type`, value: inactive },
        ]);
      if (!provider!.active)
        throw DomainError.validation([
          { field: "doctorId", reason: "is an inactive provider: reactivate them to book", value: draft.doctorId },
        ]);
      if (!provider!.clinicIds.includes(draft.clinicId)) {
        throw DomainError.validation([
          { field: "doctorId", reason: `does not work at clinic ${draft.clinicId}`, value: draft.doctorId },
        ]);
      }
      if (patientCase?.treatmentStatus === "DISCHARGED")
        throw DomainError.validation([
          { field: "serviceCaseId", reason: "the case is DISCHARGED", value: draft.serviceCaseId },
        ]);
      if (options.placement)
        await options.placement(tx, {
          organisationId: orgId,
          provider: provider!,
          clinic: clinic!,
          startsAt: draft.startsAt,
          endsAt: draft.endsAt,
        });
      await this.assertSlotFree(tx, { organisationId: orgId, ...draft });
      const warnings = await this.checkVisits(tx, clinic!, patientCase, draft.startsAt);
      const appointment = await tx.appointments.insert({
        organisationId: orgId,
        patientId: draft.patientId,
        doctorId: draft.doctorId,
        clinicId: draft.clinicId,
        categoryIds: [...draft.categoryIds],
        startsAt: draft.startsAt,
        endsAt: draft.endsAt,
        paymentMode: draft.paymentMode,
        serviceCaseId: draft.serviceCaseId ?? null,
        teleHealthUrl: draft.teleHealthUrl ?? null,
        comments: draft.comments ?? null,
        appointmentNotes: draft.appointmentNotes ?? null,
        status: "SCHEDULED",
        cancellation: null,
        createdBy: principal.userId,
        createdAt: now,
        updatedAt: now,
        version: 1,
      });
      await tx.appointments.appendHistory(historyEntry(appointment, "BOOK", null, principal.userId, now));
      await tx.outbox.append(appointmentEvent("appointment.created", eventData(appointment), now));
      if (options.onBooked) await options.onBooked(tx, appointment);
      return { appointment, warnings };
    });
  }

  /** The appointment; APPOINTMENT_NOT_FOUND when the organisation has none, or it is at a clinic the principal's restriction does not reach. */
  async get(principal: Principal, id: number): Promise<Appointment> {
    if (!Number.isSafeInteger(id) || id <= 0) throw notFound(id);
    const found = await this.deps.storage.repositories.appointments.findById(principal.organisationId, id);
    if (!found || !clinicAccess(principal).canSee(found.clinicId)) throw notFound(id);
    return found;
  }

  async history(principal: Principal, id: number): Promise<AppointmentHistoryEntry[]> {
    await this.get(principal, id);
    return this.deps.storage.repositories.appointments.history(principal.organisationId, id);
  }

  async list(principal: Principal, query: AppointmentListQuery): Promise<AppointmentPage> {
    const criteria = {
      ...toAppointmentListCriteria(principal.organisationId, query),
      inClinics: clinicAccess(principal).only,
    };
    // Like the patient list, a page may come from a read replica (PatientService.list).
    const { appointments, total } = await readsFor(this.deps.storage, principal.organisationId).appointments.list(
      criteria,
    );
    return { appointments, total, page: criteria.offset / criteria.limit + 1, size: criteria.limit };
  }

  /** The providers of the appointments, by the doctor (user) id appointments hold: v2 shows provider ids. */
  async providersOf(principal: Principal, appointments: readonly Appointment[]): Promise<Map<number, Provider>> {
    if (appointments.length === 0) return new Map();
    const all = await this.deps.storage.repositories.organisations.listProviders(principal.organisationId);
    const wanted = new Set(appointments.map((a) => a.doctorId));
    return new Map(all.filter((p) => wanted.has(p.userId)).map((p) => [p.userId, p]));
  }

  /**
   * Applies one action of the state machine (APPOINTMENT_TRANSITIONS). A refused
   * action changes nothing and names the current status. When another writer
   * changes the appointment at the same moment, the action is decided again on
   * the new state (so two cancels give one cancellation and one refusal).
   */
  async act(principal: Principal, id: number, input: ActionInput): Promise<AppointmentOutcome> {
    if (input.action === "RESCHEDULE") assertValidAppointmentTimes(input.startsAt, input.endsAt);
    if (input.action === "CANCEL") assertValidCancellation(input.cancellation);
    const before = await this.get(principal, id);
    for (let attempt = 1; ; attempt++) {
      try {
        return await this.deps.storage.transaction((tx) => this.applyAction(tx, principal, before, input));
      } catch (error) {
        if (!(error instanceof LostUpdate) || attempt >= 5) throw error;
      }
    }
  }

  private async applyAction(
    tx: R,
    principal: Principal,
    before: Appointment,
    input: ActionInput,
  ): Promise<AppointmentOutcome> {
    const orgId = principal.organisationId;
    const id = before.id;
    const now = this.deps.clock.now();
    // A reschedule books a new slot: lock the doctor's schedule, then the case, as book() does (neither ever changes).
    if (input.action === "RESCHEDULE") {
      await tx.appointments.lockDoctorSchedule(orgId, before.doctorId);
      if (before.serviceCaseId !== null) await tx.cases.lockForVisits(orgId, before.serviceCaseId);
    }
    const current = await tx.appointments.findById(orgId, id);
    if (!current) throw notFound(id);
    const transition = findTransition(current.status, input.action);
    if (!transition) throw refused(current, input.action);
    const { next, warnings } = await this.afterGuard(tx, principal, current, transition, input, now);
    if (!(await tx.appointments.update(next))) throw new LostUpdate();
    const stored = { ...next, version: current.version + 1 };
    await tx.appointments.appendHistory(historyEntry(stored, input.action, current.status, principal.userId, now));
    await tx.outbox.append(appointmentEvent(transition.event, eventData(stored), now));
    // A cancelled visit gives its time back (a reschedule gives back the old time too): the waitlist may fill it.
    if (transition.to === "CANCELLED" || (input.action === "RESCHEDULE" && current.status === "SCHEDULED"))
      await queueFreedTime(
        tx,
        {
          organisationId: orgId,
          doctorId: current.doctorId,
          clinicId: current.clinicId,
          startsAt: current.startsAt,
          endsAt: current.endsAt,
        },
        now,
      );
    return { appointment: stored, warnings };
  }

  /** Checks the transition's guard and returns the appointment as it will be stored. */
  private async afterGuard(
    tx: R,
    principal: Principal,
    current: Appointment,
    t: AppointmentTransition,
    input: ActionInput,
    now: Date,
  ): Promise<{ next: Appointment; warnings: VisitProblem[] }> {
    const next: Appointment = { ...current, status: t.to, updatedAt: now };
    const plain = (n: Appointment) => ({ next: n, warnings: [] });
    switch (t.guard) {
      case "start_passed":
        if (now.getTime() < current.startsAt.getTime()) {
          throw systemError(
            "INVALID_TRANSITION",
            "An appointment can be marked as a no-show only once its start time has passed",
            {
              current_status: current.status,
              action: input.action,
              guard: t.guard,
            },
          );
        }
        return plain(next);
      case "slot_free": {
        if (input.action !== "RESCHEDULE") throw new Error("slot_free guards only RESCHEDULE");
        const moved = { ...next, startsAt: input.startsAt, endsAt: input.endsAt };
        await this.assertSlotFree(tx, moved, current.id);
        // The new date may fall in another authorization's window, or in none.
        const clinic = await tx.organisations.findClinic(current.organisationId, current.clinicId);
        const patientCase =
          current.serviceCaseId === null
            ? undefined
            : await tx.cases.findById(current.organisationId, current.serviceCaseId);
        if (current.serviceCaseId !== null && !patientCase) throw caseNotFound(current.serviceCaseId);
        return {
          next: moved,
          warnings: clinic ? await this.checkVisits(tx, clinic, patientCase, moved.startsAt, current.id) : [],
        };
      }
      case "reason_active": {
        if (input.action !== "CANCEL") throw new Error("reason_active guards only CANCEL");
        const reasons = await tx.catalog.listCancellationReasons(principal.organisationId);
        const reason = reasons.find((r) => r.reasonKey === input.cancellation.reasonKey && r.status === "ACTIVE");
        if (!reason) {
          throw unknownReference([
            {
              field: "reasonKey",
              reason: "is not an active cancellation reason of this organisation",
              value: input.cancellation.reasonKey,
            },
          ]);
        }
        const c = input.cancellation;
        return plain({
          ...next,
          cancellation: {
            reasonKey: reason.reasonKey,
            reasonLabel: c.reasonLabel ?? reason.reasonLabel,
            comment: c.comment ?? null,
            fee: c.fee ?? reason.cancellationFee,
            cancelledAt: now,
            cancelledBy: principal.userId,
          },
        });
      }
      case null:
        return plain(next);
    }
  }
}

function refused(current: Appointment, action: AppointmentAction): DomainError {
  const verb = action.toLowerCase().replace("_", "-");
  return systemError("INVALID_TRANSITION", `Cannot ${verb} an appointment that is ${current.status}`, {
    appointment_id: current.id,
    current_status: current.status,
    action,
    allowed_actions: allowedActions(current.status),
  });
}
