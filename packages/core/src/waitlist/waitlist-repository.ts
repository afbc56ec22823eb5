import type { WaitlistOffer, WaitlistRequest, WaitlistStatus } from "./waitlist.js";

/**
 * Waitlist requests and their offers, of every organisation; every method is scoped by organisation id.
 * Offers are unique per (request, provider, start): a slot is never offered to one request twice.
 */
export interface WaitlistRepository {
  insertRequest(request: Omit<WaitlistRequest, "id">): Promise<WaitlistRequest>;
  findRequest(organisationId: number, id: number): Promise<WaitlistRequest | undefined>;
  /** A page by priority (high first), then age, then id; total counts every match. */
  listRequests(
    organisationId: number,
    filter: {
      statuses?: readonly WaitlistStatus[] | undefined;
      patientId?: number | undefined;
      /**
       * Only requests a clinic restriction reaches: those naming one of these clinics, or naming none (any clinic);
       * never empty; undefined: every request.
       */
      inClinics?: readonly number[] | undefined;
      limit: number;
      offset: number;
    },
  ): Promise<{ requests: WaitlistRequest[]; total: number }>;
  /** Every request in `waiting` (what a freed slot is matched against), in no particular order. */
  listWaiting(organisationId: number): Promise<WaitlistRequest[]>;
  /**
   * Stores every field but id, patient and createdAt if the stored version is still `request.version`, and
   * stores version + 1. false when another writer got there first (nothing written).
   */
  updateRequest(request: WaitlistRequest): Promise<boolean>;

  /** The new offer, or undefined when this request was offered this provider's slot at this start before. */
  insertOffer(offer: Omit<WaitlistOffer, "id">): Promise<WaitlistOffer | undefined>;
  findOffer(organisationId: number, id: number): Promise<WaitlistOffer | undefined>;
  /** The offers of the requests (one, or a page of them: one query), newest first. */
  listOffers(organisationId: number, requestIds: readonly number[]): Promise<WaitlistOffer[]>;
  /** Ids of the requests offered the provider's slot starting at `startsAt` (any outcome). */
  requestsOfferedSlot(organisationId: number, providerId: number, startsAt: Date): Promise<number[]>;
  /** Writes status, decidedAt and appointmentId. */
  updateOffer(offer: WaitlistOffer): Promise<void>;
  /** Pending offers of the providers (v2 ids) that overlap [from, to) and expire after `now`: time they hold. */
  listHolds(
    organisationId: number,
    providerIds: readonly number[],
    from: Date,
    to: Date,
    now: Date,
  ): Promise<WaitlistOffer[]>;
}
