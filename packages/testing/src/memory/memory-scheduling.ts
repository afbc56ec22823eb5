import type { ProviderBlock, ProviderSchedule, Repositories } from "@openpractice/core";
import { type MemoryState, moduleState } from "./memory-state.js";

/** Providers' schedules and blocks in memory, in the domain's own slices of the state. */
export function memorySchedules(s: () => MemoryState): Pick<Repositories, "schedules" | "blocks"> {
  const blocks = () => moduleState(s(), "blocks", () => new Map<number, ProviderBlock>());
  const rows = () => moduleState(s(), "schedules", () => new Map<number, ProviderSchedule>());
  const ofProvider = (organisationId: number, providerId: number) =>
    [...rows().values()].filter((r) => r.organisationId === organisationId && r.providerId === providerId);
  const endsOnOrAfter = (r: ProviderSchedule, date: string) => r.effectiveUntil === null || r.effectiveUntil >= date;
  return {
    schedules: {
      async insert(schedule) {
        const stored = { ...structuredClone(schedule), id: s().nextId++ };
        rows().set(stored.id, stored);
        return structuredClone(stored);
      },
      findById: async (organisationId, id) =>
        structuredClone([rows().get(id)].find((r) => r?.organisationId === organisationId)),
      listInForce: async (organisationId, providerIds, from) =>
        structuredClone(
          [...rows().values()]
            .filter((r) => r.organisationId === organisationId && providerIds.includes(r.providerId))
            .filter((r) => endsOnOrAfter(r, from))
            .sort((a, b) =>
              a.effectiveFrom < b.effectiveFrom ? -1 : a.effectiveFrom > b.effectiveFrom ? 1 : a.id - b.id,
            ),
        ),
      async list(organisationId, providerId, f) {
        const found = ofProvider(organisationId, providerId)
          .filter(
            (r) =>
              (f.clinicId === undefined || r.clinicId === f.clinicId) &&
              (f.inClinics === undefined || f.inClinics.includes(r.clinicId)) &&
              (f.endingOnOrAfter === undefined || endsOnOrAfter(r, f.endingOnOrAfter)),
          )
          .sort((a, b) =>
            a.effectiveFrom < b.effectiveFrom ? 1 : a.effectiveFrom > b.effectiveFrom ? -1 : b.id - a.id,
          );
        return { schedules: structuredClone(found.slice(f.offset, f.offset + f.limit)), total: found.length };
      },
      async end(organisationId, id, effectiveUntil, replacedById, now) {
        const row = rows().get(id);
        if (row?.organisationId === organisationId)
          rows().set(id, { ...row, effectiveUntil, replacedById, updatedAt: now });
      },
    },
    blocks: {
      async insert(block) {
        const stored = { ...structuredClone(block), id: s().nextId++ };
        blocks().set(stored.id, stored);
        return structuredClone(stored);
      },
      findById: async (organisationId, id) =>
        structuredClone([blocks().get(id)].find((b) => b?.organisationId === organisationId)),
      listBetween: async (organisationId, providerIds, from, to) =>
        structuredClone(
          [...blocks().values()]
            .filter(
              (b) =>
                b.organisationId === organisationId &&
                providerIds.includes(b.providerId) &&
                b.removedAt === null &&
                b.lastEndsAt > from &&
                b.startsAt < to,
            )
            .sort((a, b) => a.startsAt.getTime() - b.startsAt.getTime() || a.id - b.id),
        ),
      async update(block) {
        const b = blocks().get(block.id);
        if (b?.organisationId !== block.organisationId || b.removedAt !== null || b.version !== block.version)
          return false;
        // Everything an edit may change; the provider, creation and removal stay as stored.
        blocks().set(block.id, {
          ...b,
          ...structuredClone({
            startsAt: block.startsAt,
            endsAt: block.endsAt,
            lastEndsAt: block.lastEndsAt,
            reason: block.reason,
            timeZone: block.timeZone,
            rrule: block.rrule,
            exceptions: block.exceptions,
            seriesId: block.seriesId,
          }),
          version: b.version + 1,
        });
        return true;
      },
      async remove(organisationId, id, now) {
        const b = blocks().get(id);
        if (b?.organisationId !== organisationId || b.removedAt !== null) return false;
        blocks().set(id, { ...b, removedAt: now });
        return true;
      },
    },
  };
}
