import { PRIORITY_RANK, type Repositories, type WaitlistOffer, type WaitlistRequest } from "@openpractice/core";
import { type MemoryState, moduleState } from "./memory-state.js";

/** Waitlist requests and offers in memory, in the domain's own slices of the state. */
export function memoryWaitlist(s: () => MemoryState): Pick<Repositories, "waitlist"> {
  const requests = () => moduleState(s(), "waitlistRequests", () => new Map<number, WaitlistRequest>());
  const offers = () => moduleState(s(), "waitlistOffers", () => new Map<number, WaitlistOffer>());
  const ofOrganisation = <T extends { organisationId: number }>(rows: Iterable<T>, organisationId: number) =>
    [...rows].filter((r) => r.organisationId === organisationId);
  return {
    waitlist: {
      async insertRequest(request) {
        const stored = { ...structuredClone(request), id: s().nextId++ };
        requests().set(stored.id, stored);
        return structuredClone(stored);
      },
      findRequest: async (organisationId, id) =>
        structuredClone([requests().get(id)].find((r) => r?.organisationId === organisationId)),
      async listRequests(organisationId, f) {
        const found = ofOrganisation(requests().values(), organisationId)
          .filter(
            (r) =>
              (!f.statuses?.length || f.statuses.includes(r.status)) &&
              (f.patientId === undefined || r.patientId === f.patientId) &&
              (f.inClinics === undefined ||
                r.clinicIds.length === 0 ||
                r.clinicIds.some((id) => f.inClinics!.includes(id))),
          )
          .sort(
            (a, b) =>
              PRIORITY_RANK[a.priority] - PRIORITY_RANK[b.priority] ||
              a.createdAt.getTime() - b.createdAt.getTime() ||
              a.id - b.id,
          );
        return { requests: structuredClone(found.slice(f.offset, f.offset + f.limit)), total: found.length };
      },
      listWaiting: async (organisationId) =>
        structuredClone(ofOrganisation(requests().values(), organisationId).filter((r) => r.status === "waiting")),
      async updateRequest(request) {
        const stored = requests().get(request.id);
        if (stored?.organisationId !== request.organisationId || stored.version !== request.version) return false;
        requests().set(request.id, {
          ...structuredClone(request),
          patientId: stored.patientId,
          createdAt: stored.createdAt,
          version: stored.version + 1,
        });
        return true;
      },
      async insertOffer(offer) {
        const taken = [...offers().values()].some(
          (o) =>
            o.requestId === offer.requestId &&
            o.providerId === offer.providerId &&
            o.startsAt.getTime() === offer.startsAt.getTime(),
        );
        if (taken) return undefined;
        const stored = { ...structuredClone(offer), id: s().nextId++ };
        offers().set(stored.id, stored);
        return structuredClone(stored);
      },
      findOffer: async (organisationId, id) =>
        structuredClone([offers().get(id)].find((o) => o?.organisationId === organisationId)),
      listOffers: async (organisationId, requestIds) =>
        structuredClone(
          ofOrganisation(offers().values(), organisationId)
            .filter((o) => requestIds.includes(o.requestId))
            .sort((a, b) => b.id - a.id),
        ),
      requestsOfferedSlot: async (organisationId, providerId, startsAt) =>
        ofOrganisation(offers().values(), organisationId)
          .filter((o) => o.providerId === providerId && o.startsAt.getTime() === startsAt.getTime())
          .map((o) => o.requestId),
      async updateOffer(offer) {
        const stored = offers().get(offer.id);
        if (stored?.organisationId === offer.organisationId)
          offers().set(offer.id, {
            ...stored,
            status: offer.status,
            decidedAt: offer.decidedAt,
            appointmentId: offer.appointmentId,
          });
      },
      listHolds: async (organisationId, providerIds, from, to, now) =>
        structuredClone(
          ofOrganisation(offers().values(), organisationId).filter(
            (o) =>
              providerIds.includes(o.providerId) &&
              o.status === "pending" &&
              o.startsAt < to &&
              o.endsAt > from &&
              o.expiresAt > now,
          ),
        ),
    },
  };
}
