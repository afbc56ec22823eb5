import { systemError } from "../kernel/system-errors.js";
import { waitlistError } from "./waitlist-errors.js";
import { type AppointmentOutcome, AppointmentService } from "../appointments/appointment-service.js";
import { type ClinicAccess, clinicAccess } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { toPageWindow } from "../kernel/paging.js";
import type { Storage } from "../kernel/storage.js";
import type { WaitlistServiceRepositories } from "./waitlist-service-repositories.js";
import { findReachableClinic } from "../organisations/reachable-clinic.js";
import { slotStillFree } from "../scheduling/placement.js";
import {
  type WaitlistOffer,
  type WaitlistRequest,
  type WaitlistRequestChanges,
  type WaitlistRequestDraft,
  WAITLIST_LIMITS,
  WAITLIST_STATUSES,
  type WaitlistStatus,
} from "./waitlist.js";
import { waitlistRequestIssues } from "./waitlist-rules.js";
import { allowedWaitlistTriggers, type WaitlistTrigger, waitlistTransitions } from "./waitlist-state-machine.js";
import { queueFreedTime } from "../appointments/freed-time.js";

export const waitlistRequestNotFound = (id: unknown) =>
  waitlistError("WAITLIST_REQUEST_NOT_FOUND", "Waitlist request not found", { waitlist_request_id: id });

/** A request as read: with its offers, newest first (the first is the live one when the status is offered). */
export interface WaitlistRequestView {
  request: WaitlistRequest;
  offers: WaitlistOffer[];
}

export interface WaitlistPage {
  requests: WaitlistRequestView[];
  total: number;
  page: number;
  perPage: number;
}

/** The request can not take the trigger in its status (INVALID_TRANSITION, naming status and allowed triggers). */
export function refusedTrigger(r: WaitlistRequest, trigger: WaitlistTrigger): DomainError {
  return systemError("INVALID_TRANSITION", `Cannot ${trigger.toLowerCase()} a waitlist request that is ${r.status}`, {
    waitlist_request_id: r.id,
    current_status: r.status,
    action: trigger,
    allowed_actions: allowedWaitlistTriggers(r.status),
  });
}

class LostUpdate extends Error {}

/** A restricted principal reaches a request that names one of its clinics, or names none (any clinic, its own too). */
const reaches = (access: ClinicAccess, r: WaitlistRequest) => r.clinicIds.length === 0 || access.canSeeAny(r.clinicIds);

/**
 * The clinics a request written by the principal names: those it sent; when it sent none, "any clinic" for an
 * unrestricted principal, and any of its own clinics for a restricted one (it may not open a request to the others).
 */
const requestClinics = (access: ClinicAccess, sent: readonly number[]) =>
  sent.length === 0 && access.only ? [...access.only] : [...sent];

/**
 * Waitlist requests (spec 4.7 /v2/waitlist-requests) of the principal's organisation: create, read, list, change,
 * cancel, and accept the offer a freed slot produced (waitlist-matcher.ts makes offers and lets them lapse).
 */
export class WaitlistService {
  private readonly appointments: AppointmentService<WaitlistServiceRepositories>;

  constructor(private readonly deps: { storage: Storage<WaitlistServiceRepositories>; clock: Clock }) {
    this.appointments = new AppointmentService(deps);
  }

  /** Refuses references that name nothing in the organisation (UNKNOWN_REFERENCE, one issue per reference). */
  private async checkReferences(
    tx: WaitlistServiceRepositories,
    principal: Principal,
    r: WaitlistRequestDraft,
  ): Promise<void> {
    const organisationId = principal.organisationId;
    const issues: ValidationIssue[] = [];
    const missing = "does not exist in this organisation";
    const [patient, type] = await Promise.all([
      tx.patients.findById(organisationId, r.patientId),
      tx.catalog.findAppointmentCategory(organisationId, r.appointmentTypeId),
    ]);
    if (!patient) issues.push({ field: "patientId", reason: missing, value: r.patientId });
    if (!type) issues.push({ field: "appointmentTypeId", reason: missing, value: r.appointmentTypeId });
    for (const id of r.providerIds ?? [])
      if (!(await tx.organisations.findProviderById(organisationId, id)))
        issues.push({ field: "providerIds", reason: `${id} ${missing}`, value: id });
    for (const id of r.clinicIds ?? [])
      if (!(await findReachableClinic(tx, principal, id)))
        issues.push({ field: "clinicIds", reason: `${id} ${missing}`, value: id });
    if (r.serviceCaseId != null) {
      const c = await tx.cases.findById(organisationId, r.serviceCaseId);
      if (c?.patientId !== r.patientId)
        issues.push({ field: "serviceCaseId", reason: "no such case for this patient", value: r.serviceCaseId });
    }
    if (issues.length > 0) throw DomainError.unknownReference(issues);
  }

  async create(principal: Principal, draft: WaitlistRequestDraft): Promise<WaitlistRequestView> {
    const issues = waitlistRequestIssues(draft);
    if (issues.length > 0) throw DomainError.validation(issues);
    const organisationId = principal.organisationId;
    const now = this.deps.clock.now();
    const clinicIds = requestClinics(clinicAccess(principal), draft.clinicIds ?? []);
    const request = await this.deps.storage.transaction(async (tx) => {
      await this.checkReferences(tx, principal, draft);
      return tx.waitlist.insertRequest({
        organisationId,
        patientId: draft.patientId,
        serviceCaseId: draft.serviceCaseId ?? null,
        providerIds: [...(draft.providerIds ?? [])],
        clinicIds,
        appointmentTypeId: draft.appointmentTypeId,
        preferredDays: [...(draft.preferredDays ?? [])],
        timeWindows: (draft.timeWindows ?? []).map((w) => ({ start: w.start, end: w.end })),
        earliestDate: draft.earliestDate ?? null,
        latestDate: draft.latestDate ?? null,
        priority: draft.priority ?? "normal",
        paymentMode: draft.paymentMode,
        notes: draft.notes ?? null,
        status: "waiting",
        appointmentId: null,
        createdAt: now,
        updatedAt: now,
        version: 1,
      });
    });
    return { request, offers: [] };
  }

  private async find(principal: Principal, id: number): Promise<WaitlistRequest> {
    if (!Number.isSafeInteger(id) || id <= 0) throw waitlistRequestNotFound(id);
    const found = await this.deps.storage.repositories.waitlist.findRequest(principal.organisationId, id);
    if (!found || !reaches(clinicAccess(principal), found)) throw waitlistRequestNotFound(id);
    return found;
  }

  /** The request's offers the principal reaches (those at its clinics, when it is restricted), newest first. */
  private async offersOf(principal: Principal, requestIds: readonly number[]): Promise<WaitlistOffer[]> {
    const access = clinicAccess(principal);
    const offers = await this.deps.storage.repositories.waitlist.listOffers(principal.organisationId, requestIds);
    return offers.filter((o) => access.canSee(o.clinicId));
  }

  async get(principal: Principal, id: number): Promise<WaitlistRequestView> {
    const request = await this.find(principal, id);
    return { request, offers: await this.offersOf(principal, [id]) };
  }

  async list(
    principal: Principal,
    q: { statuses?: string[] | undefined; patientId?: number | undefined; page?: number; perPage?: number },
  ): Promise<WaitlistPage> {
    const { limit, offset } = toPageWindow(q.page, q.perPage, {
      defaultSize: WAITLIST_LIMITS.defaultPerPage,
      maxSize: WAITLIST_LIMITS.maxPerPage,
    });
    const unknown = q.statuses?.find((s) => !WAITLIST_STATUSES.includes(s as WaitlistStatus));
    if (unknown !== undefined)
      throw DomainError.invalidParameter("status", unknown, `must be one or more of ${WAITLIST_STATUSES.join(", ")}`);
    const r = this.deps.storage.repositories.waitlist;
    const { requests, total } = await r.listRequests(principal.organisationId, {
      statuses: q.statuses as WaitlistStatus[] | undefined,
      patientId: q.patientId,
      inClinics: clinicAccess(principal).only,
      limit,
      offset,
    });
    // Every offer of the page in one query, then each request's, newest first as the query returns them.
    const offers = await this.offersOf(
      principal,
      requests.map((request) => request.id),
    );
    const views = requests.map((request) => ({ request, offers: offers.filter((o) => o.requestId === request.id) }));
    return { requests: views, total, page: offset / limit + 1, perPage: limit };
  }

  /**
   * Reads the request, and runs `write` on it in a transaction; when another writer changed the request in between
   * (updateRequest found another version), decides again on the new state, at most five times.
   */
  private async onCurrent(
    principal: Principal,
    id: number,
    write: (current: WaitlistRequest, tx: WaitlistServiceRepositories) => Promise<void>,
  ): Promise<WaitlistRequestView> {
    for (let attempt = 1; ; attempt++) {
      const current = await this.find(principal, id);
      try {
        await this.deps.storage.transaction((tx) => write(current, tx));
        return this.get(principal, id);
      } catch (error) {
        if (!(error instanceof LostUpdate) || attempt >= 5) throw error;
      }
    }
  }

  /** Changes a waiting or offered request (UPDATE); omitted fields keep their values. */
  async update(principal: Principal, id: number, changes: WaitlistRequestChanges): Promise<WaitlistRequestView> {
    const now = this.deps.clock.now();
    const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
    return this.onCurrent(principal, id, async (current, tx) => {
      if (waitlistTransitions(current.status, "UPDATE").length === 0) throw refusedTrigger(current, "UPDATE");
      const next: WaitlistRequest = { ...current, ...defined, updatedAt: now };
      if (changes.clinicIds) next.clinicIds = requestClinics(clinicAccess(principal), changes.clinicIds);
      const issues = waitlistRequestIssues(next);
      if (issues.length > 0) throw DomainError.validation(issues);
      // Clinics it already names stay, reachable or not: only clinics the change sends must be the principal's.
      await this.checkReferences(tx, principal, changes.clinicIds ? next : { ...next, clinicIds: [] });
      if (!(await tx.waitlist.updateRequest(next))) throw new LostUpdate();
    });
  }

  /**
   * DELETE: the request is cancelled (kept, readable). A live offer is withdrawn and its slot goes back to the
   * matcher for the next request.
   */
  async cancel(principal: Principal, id: number): Promise<WaitlistRequestView> {
    const now = this.deps.clock.now();
    return this.onCurrent(principal, id, async (current, tx) => {
      const transition = waitlistTransitions(current.status, "CANCEL")[0];
      if (!transition) throw refusedTrigger(current, "CANCEL");
      if (!(await tx.waitlist.updateRequest({ ...current, status: transition.to, updatedAt: now })))
        throw new LostUpdate();
      if (!transition.effects.includes("withdraw_offer")) return;
      const offer = (await tx.waitlist.listOffers(current.organisationId, [id])).find((o) => o.status === "pending");
      if (!offer) return;
      await tx.waitlist.updateOffer({ ...offer, status: "withdrawn", decidedAt: now });
      await queueFreedTime(
        tx,
        {
          organisationId: offer.organisationId,
          providerId: offer.providerId,
          clinicId: offer.clinicId,
          startsAt: offer.startsAt,
          endsAt: offer.endsAt,
        },
        now,
      );
    });
  }

  /**
   * Books the live offer's slot (ACCEPT): in one transaction the appointment (every booking rule of
   * AppointmentService; the offer's own hold does not count against it), the offer accepted and the request
   * booked. An offer past its expiry is WAITLIST_OFFER_EXPIRED even before the expiry job ran.
   */
  async acceptOffer(
    principal: Principal,
    id: number,
  ): Promise<{ view: WaitlistRequestView; outcome: AppointmentOutcome }> {
    const request = await this.find(principal, id);
    if (waitlistTransitions(request.status, "ACCEPT").length === 0) throw refusedTrigger(request, "ACCEPT");
    const r = this.deps.storage.repositories;
    const offer = (await this.offersOf(principal, [id])).find((o) => o.status === "pending");
    if (!offer) throw refusedTrigger(request, "ACCEPT");
    const now = this.deps.clock.now();
    if (offer.expiresAt.getTime() <= now.getTime())
      throw waitlistError("WAITLIST_OFFER_EXPIRED", "The offer has expired; the slot goes to the next request", {
        waitlist_request_id: id,
        waitlist_offer_id: offer.id,
        expired_at: offer.expiresAt.toISOString(),
      });
    const provider = await r.organisations.findProviderById(request.organisationId, offer.providerId);
    if (!provider) throw refusedTrigger(request, "ACCEPT");
    const outcome = await this.appointments.book(
      principal,
      {
        patientId: request.patientId,
        doctorId: provider.userId,
        clinicId: offer.clinicId,
        categoryIds: [request.appointmentTypeId],
        startsAt: offer.startsAt,
        endsAt: offer.endsAt,
        paymentMode: request.paymentMode,
        serviceCaseId: request.serviceCaseId,
        appointmentNotes: request.notes,
      },
      {
        placement: slotStillFree(this.deps.clock, offer.id),
        onBooked: async (tx, appointment) => {
          // Decided again inside the transaction: the expiry job or a cancel may have got there first.
          const live = await tx.waitlist.findOffer(offer.organisationId, offer.id);
          const current = await tx.waitlist.findRequest(request.organisationId, id);
          if (live?.status !== "pending" || current?.status !== "offered")
            throw refusedTrigger(current ?? request, "ACCEPT");
          await tx.waitlist.updateOffer({ ...live, status: "accepted", decidedAt: now, appointmentId: appointment.id });
          const booked = { ...current, status: "booked" as const, appointmentId: appointment.id, updatedAt: now };
          if (!(await tx.waitlist.updateRequest(booked))) throw refusedTrigger(current, "ACCEPT");
        },
      },
    );
    return { view: await this.get(principal, id), outcome };
  }
}
