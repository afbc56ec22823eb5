import type { WebhookRepository } from "@openpractice/core";
import type { MemoryState } from "./memory-state.js";

/** Webhook subscriptions, deliveries and attempts in memory. Transactions run one at a time, so the organisation lock only checks existence. */
export function memoryWebhooks(s: () => MemoryState): WebhookRepository {
  const own = <T extends { organisationId: number }>(row: T | undefined, orgId: number) =>
    row && row.organisationId === orgId ? structuredClone(row) : undefined;
  return {
    lockOrganisation: async (orgId) => s().organisations.has(orgId),
    async insertSubscription(record) {
      const stored = { ...structuredClone(record), id: s().nextId++ };
      s().subscriptions.set(stored.id, stored);
      return structuredClone(stored);
    },
    findSubscription: async (orgId, id) => own(s().subscriptions.get(id), orgId),
    listSubscriptions: async (orgId, filter) =>
      structuredClone(
        [...s().subscriptions.values()]
          .filter(
            (x) => x.organisationId === orgId && (filter.isActive === undefined || x.isActive === filter.isActive),
          )
          .sort((a, b) => a.id - b.id),
      ),
    async updateSubscription(sub) {
      if (s().subscriptions.get(sub.id)?.organisationId === sub.organisationId)
        s().subscriptions.set(sub.id, structuredClone(sub));
    },
    deleteSubscription: async (orgId, id) =>
      s().subscriptions.get(id)?.organisationId === orgId && s().subscriptions.delete(id),
    subscribersOf: async (orgId, eventType) =>
      structuredClone(
        [...s().subscriptions.values()]
          .filter(
            (x) =>
              x.organisationId === orgId &&
              x.isActive &&
              s().organisations.get(orgId)?.isActive &&
              x.eventTypes.includes(eventType),
          )
          .sort((a, b) => a.id - b.id),
      ),
    findDelivery: async (orgId, id) => own(s().deliveries.get(id), orgId),
    async updateDeliveries(ds) {
      for (const d of ds) if (s().deliveries.has(d.id)) s().deliveries.set(d.id, structuredClone(d));
    },
    async listDeliveries(orgId, subscriptionId, filter) {
      const rows = [...s().deliveries.values()]
        .filter(
          (d) =>
            d.organisationId === orgId &&
            d.subscriptionId === subscriptionId &&
            (!filter.status || d.status === filter.status),
        )
        .sort((a, b) => b.id - a.id);
      return {
        deliveries: structuredClone(rows.slice(filter.offset, filter.offset + filter.limit)),
        total: rows.length,
      };
    },
    appendAttempts: async (as) => void as.forEach((a) => s().attempts.push(structuredClone(a))),
    attempts: async (deliveryId) => structuredClone(s().attempts.filter((a) => a.deliveryId === deliveryId)),
    async insertDeliveries(ds) {
      const out = [];
      for (const d of ds) {
        if (
          d.outboxId !== null &&
          [...s().deliveries.values()].some((x) => x.subscriptionId === d.subscriptionId && x.outboxId === d.outboxId)
        )
          continue;
        const stored = { ...structuredClone(d), id: s().nextId++ };
        s().deliveries.set(stored.id, stored);
        out.push(structuredClone(stored));
      }
      return out;
    },
    async findDeliveriesForAttempt(ids) {
      const found = new Map();
      for (const id of ids) {
        const delivery = s().deliveries.get(id);
        if (delivery)
          found.set(id, {
            delivery: structuredClone(delivery),
            subscription: own(s().subscriptions.get(delivery.subscriptionId), delivery.organisationId),
          });
      }
      return found;
    },
  };
}
