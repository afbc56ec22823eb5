import { waitlistEvent } from "./waitlist-events.js";
import { type FreedTime, queueFreedTime } from "../appointments/freed-time.js";
import type { Clock } from "../kernel/clock.js";
import type { Ids } from "../kernel/ids.js";
import { NOTIFICATION_DELIVERY_QUEUE } from "../notifications/push-outcome.js";
import type { Clinic, Provider } from "../organisations/organisation.js";
import type { Storage } from "../kernel/storage.js";
import type { WaitlistServiceRepositories } from "./waitlist-service-repositories.js";
import { slotProblem } from "../scheduling/placement.js";
import { shiftOf } from "../scheduling/provider-schedule.js";
import { occurrences } from "../scheduling/shift.js";
import type { WaitlistOffer, WaitlistRequest } from "./waitlist.js";
import { byWaitlistOrder, latestDatePassed, requestAccepts } from "./waitlist-rules.js";
import { waitlistTransitions } from "./waitlist-state-machine.js";

export const WAITLIST_OFFER_EXPIRY_QUEUE = "waitlist.offer-expiry";

/** The push a patient gets with an offer (to their devices registered as PATIENT with the patient's id). */
const offerPush = (offer: WaitlistOffer, clinic: Clinic) => ({
  title: "An earlier appointment is available",
  body: `${clinic.name}, ${new Intl.DateTimeFormat("en-US", {
    timeZone: clinic.timeZone,
    dateStyle: "medium",
    timeStyle: "short",
  }).format(offer.startsAt)}. Reply before ${new Intl.DateTimeFormat("en-US", {
    timeZone: clinic.timeZone,
    timeStyle: "short",
  }).format(offer.expiresAt)} to take it.`,
  link: `type=waitlist_offer&waitlist_request_id=${offer.requestId}&waitlist_offer_id=${offer.id}`,
});

/**
 * The waitlist's background work, run by the job runner wherever the library runs: a freed stretch of time is
 * offered to the best waiting request (priority, then age) that it suits, and an offer that lapses moves the slot
 * on. Each step is one transaction that starts with the provider's schedule lock (the one bookings take), so a
 * slot is held by at most one offer and never offered to one request twice (the offers' unique key).
 */
export class WaitlistMatcher {
  constructor(
    private readonly deps: {
      storage: Storage<WaitlistServiceRepositories>;
      clock: Clock;
      ids: Ids;
      offerMinutes: number;
    },
  ) {}

  /** Handles one freed stretch: at most one offer. Returns the offer made, if any. */
  async offerFreedTime(freed: FreedTime): Promise<WaitlistOffer | undefined> {
    const organisationId = freed.organisationId;
    // Read before the transaction: its first statement must be the lock (snapshot engines take the snapshot at the
    // first read, and what the matcher reads must include every booking committed before the lock).
    const r = this.deps.storage.repositories;
    const provider =
      freed.providerId !== undefined
        ? await r.organisations.findProviderById(organisationId, freed.providerId)
        : await r.organisations.findProvider(organisationId, freed.doctorId as number);
    if (!provider || !provider.active) return undefined;
    return this.deps.storage.transaction(async (tx) => {
      await tx.appointments.lockDoctorSchedule(organisationId, provider.userId);
      const startsAt = new Date(freed.startsAt);
      const endsAt = new Date(freed.endsAt);
      const clinic = await this.clinicOf(tx, provider, freed.clinicId, startsAt);
      if (!clinic) return undefined;
      const now = this.deps.clock.now();
      const waiting: WaitlistRequest[] = [];
      // Requests past their latest date expire here, whether or not this slot goes to another.
      for (const request of (await tx.waitlist.listWaiting(organisationId)).sort(byWaitlistOrder))
        if (latestDatePassed(request, now, clinic.timeZone)) await this.expireRequest(tx, request, now);
        else waiting.push(request);
      if (waiting.length === 0) return undefined;
      const offeredBefore = new Set(await tx.waitlist.requestsOfferedSlot(organisationId, provider.id, startsAt));
      const slot = { providerId: provider.id, clinicId: clinic.id, timeZone: clinic.timeZone, startsAt, endsAt };
      const durations = new Map<number, number | null>();
      for (const request of waiting) {
        if (offeredBefore.has(request.id)) continue;
        if (!durations.has(request.appointmentTypeId)) {
          const type = await tx.catalog.findAppointmentCategory(organisationId, request.appointmentTypeId);
          durations.set(request.appointmentTypeId, type?.active ? type.durationMinutes : null);
        }
        const minutes = durations.get(request.appointmentTypeId);
        if (!minutes) continue;
        const end = new Date(startsAt.getTime() + minutes * 60_000);
        if (!requestAccepts(request, slot, end)) continue;
        const at = { organisationId, provider, clinic, startsAt, endsAt: end };
        if (await slotProblem(tx, at, now)) continue;
        return this.offer(tx, request, at, now);
      }
      return undefined;
    });
  }

  /** The clinic of the freed time: the one named, else the clinic whose shift of the provider holds its start. */
  private async clinicOf(
    tx: WaitlistServiceRepositories,
    provider: Provider,
    clinicId: number | null,
    startsAt: Date,
  ): Promise<Clinic | undefined> {
    if (clinicId !== null) return tx.organisations.findClinic(provider.organisationId, clinicId);
    // From the UTC day before: whatever the clinic's zone, that covers the local day of the start.
    const dayBefore = new Date(startsAt.getTime() - 86_400_000).toISOString().slice(0, 10);
    for (const s of await tx.schedules.listInForce(provider.organisationId, [provider.id], dayBefore)) {
      const clinic = await tx.organisations.findClinic(provider.organisationId, s.clinicId);
      if (!clinic) continue;
      const within = occurrences(shiftOf(s, clinic.timeZone), startsAt, new Date(startsAt.getTime() + 1));
      if (within.some((o) => o.start <= startsAt && o.end > startsAt)) return clinic;
    }
    return undefined;
  }

  /** OFFER: the offer, the request offered, the event, the patient's push and the expiry job, in one transaction. */
  private async offer(
    tx: WaitlistServiceRepositories,
    request: WaitlistRequest,
    at: { organisationId: number; provider: Provider; clinic: Clinic; startsAt: Date; endsAt: Date },
    now: Date,
  ): Promise<WaitlistOffer | undefined> {
    const transition = waitlistTransitions(request.status, "OFFER")[0];
    if (!transition) return undefined;
    const offer = await tx.waitlist.insertOffer({
      organisationId: at.organisationId,
      requestId: request.id,
      providerId: at.provider.id,
      clinicId: at.clinic.id,
      startsAt: at.startsAt,
      endsAt: at.endsAt,
      status: "pending",
      expiresAt: new Date(now.getTime() + this.deps.offerMinutes * 60_000),
      createdAt: now,
      decidedAt: null,
      appointmentId: null,
    });
    if (!offer) return undefined;
    if (!(await tx.waitlist.updateRequest({ ...request, status: transition.to, updatedAt: now })))
      throw new Error(`waitlist request ${request.id} changed while it was offered a slot; the job retries`);
    await tx.outbox.append(
      waitlistEvent(
        "waitlist.offer_created",
        {
          organisation_id: at.organisationId,
          waitlist_request_id: request.id,
          waitlist_offer_id: offer.id,
          patient_id: request.patientId,
          provider_id: at.provider.id,
          clinic_id: at.clinic.id,
        },
        now,
      ),
    );
    await tx.jobs.enqueue({
      queue: WAITLIST_OFFER_EXPIRY_QUEUE,
      payload: { organisationId: at.organisationId, offerId: offer.id },
      runAt: offer.expiresAt,
    });
    // The push goes out with the notification delivery job, like POST /apis/v1/notifications/send.
    const push = offerPush(offer, at.clinic);
    const notificationId = `ntf_${this.deps.ids.uuid()}`;
    const inserted = await tx.notifications.insertNotification({
      id: notificationId,
      organisationId: at.organisationId,
      userType: "PATIENT",
      userId: String(request.patientId),
      title: push.title,
      body: push.body,
      link: push.link,
      idempotencyKey: `waitlist_offer_${offer.id}`,
      deliveryStatus: "queued",
      readAt: null,
      createdAt: now,
      updatedAt: now,
    });
    if (inserted)
      await tx.jobs.enqueue({ queue: NOTIFICATION_DELIVERY_QUEUE, payload: { notificationId }, runAt: now });
    return offer;
  }

  /** LATEST_DATE_PASSED: a waiting request past its latest date expires. */
  private async expireRequest(tx: WaitlistServiceRepositories, request: WaitlistRequest, now: Date): Promise<void> {
    const transition = waitlistTransitions(request.status, "LATEST_DATE_PASSED")[0];
    if (transition) await tx.waitlist.updateRequest({ ...request, status: transition.to, updatedAt: now });
  }

  /**
   * OFFER_EXPIRED: a pending offer past its expiry lapses; its request waits again (or expires, past its latest
   * date) and the slot goes back to the matcher for the next request. Anything else (accepted, withdrawn) is left.
   */
  async expireOffer(organisationId: number, offerId: number): Promise<boolean> {
    const r = this.deps.storage.repositories;
    const offer = await r.waitlist.findOffer(organisationId, offerId);
    if (!offer || offer.status !== "pending") return false;
    const provider = await r.organisations.findProviderById(organisationId, offer.providerId);
    return this.deps.storage.transaction(async (tx) => {
      // The lock first (as in offerFreedTime), then the offer as it is now: an acceptance may have committed since.
      if (provider) await tx.appointments.lockDoctorSchedule(organisationId, provider.userId);
      const now = this.deps.clock.now();
      const live = await tx.waitlist.findOffer(organisationId, offerId);
      if (!live || live.status !== "pending") return false;
      // Due early (another process's clock): throwing reschedules the job, so the offer still lapses.
      if (live.expiresAt.getTime() > now.getTime())
        throw new Error(`offer ${offerId} expires at ${live.expiresAt.toISOString()}`);
      const request = await tx.waitlist.findRequest(organisationId, offer.requestId);
      const clinic = await tx.organisations.findClinic(organisationId, offer.clinicId);
      await tx.waitlist.updateOffer({ ...live, status: "expired", decidedAt: now });
      if (request && request.status === "offered") {
        const passed = latestDatePassed(request, now, clinic?.timeZone ?? "UTC");
        const transition = waitlistTransitions("offered", "OFFER_EXPIRED").find(
          (t) => t.guard === (passed ? "after_latest" : "before_latest"),
        );
        if (transition) await tx.waitlist.updateRequest({ ...request, status: transition.to, updatedAt: now });
      }
      await queueFreedTime(
        tx,
        {
          organisationId,
          providerId: offer.providerId,
          clinicId: offer.clinicId,
          startsAt: offer.startsAt,
          endsAt: offer.endsAt,
        },
        now,
      );
      return true;
    });
  }
}
