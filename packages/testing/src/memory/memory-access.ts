import { apiClientNameKey, type ApiClient, type AuditEvent, type Repositories } from "@openpractice/core";
import { type MemoryState, moduleState } from "./memory-state.js";

/** API clients in memory, in the domain's own slice of the state. */
export function memoryApiClients(s: () => MemoryState): Pick<Repositories, "apiClients" | "clientAssertions"> {
  const clients = () => moduleState(s(), "apiClients", () => new Map<number, ApiClient>());
  const assertions = () => moduleState(s(), "clientAssertions", () => new Map<string, Date>());
  const nameHolder = (organisationId: number, name: string, exceptId?: number) =>
    [...clients().values()].find(
      (c) =>
        c.organisationId === organisationId && apiClientNameKey(c.name) === apiClientNameKey(name) && c.id !== exceptId,
    )?.id;
  return {
    apiClients: {
      async insert(record) {
        const existingId = nameHolder(record.organisationId, record.name);
        if (existingId !== undefined) return { created: false, existingId };
        const client = { ...structuredClone(record), id: s().nextId++ };
        clients().set(client.id, client);
        return { created: true, client: structuredClone(client) };
      },
      async update(client) {
        const existingId = nameHolder(client.organisationId, client.name, client.id);
        if (existingId !== undefined) return { updated: false, existingId };
        if (clients().get(client.id)?.organisationId === client.organisationId)
          clients().set(client.id, structuredClone(client));
        return { updated: true };
      },
      findById: async (organisationId, id) =>
        structuredClone([clients().get(id)].find((c) => c?.organisationId === organisationId)),
      findByClientId: async (clientId) => structuredClone([...clients().values()].find((c) => c.clientId === clientId)),
      async list(organisationId, f) {
        const rows = [...clients().values()]
          .filter((c) => c.organisationId === organisationId && (f.status === undefined || c.status === f.status))
          .sort((a, b) => a.id - b.id);
        return { clients: structuredClone(rows.slice(f.offset, f.offset + f.limit)), total: rows.length };
      },
      async touchLastToken(id, at) {
        const client = clients().get(id);
        if (client) client.lastTokenAt = at;
      },
    },
    clientAssertions: {
      async record(clientId, jti, expiresAt) {
        const key = JSON.stringify([clientId, jti]);
        if (assertions().has(key)) return false;
        assertions().set(key, expiresAt);
        return true;
      },
      async purgeExpired(now) {
        let removed = 0;
        for (const [key, expiresAt] of assertions())
          if (expiresAt < now) {
            assertions().delete(key);
            removed++;
          }
        return removed;
      },
    },
  };
}

/** The audit trail in memory: append and read only. */
export function memoryAudit(s: () => MemoryState): Pick<Repositories, "audit"> {
  const events = () => moduleState(s(), "audit", () => [] as AuditEvent[]);
  return {
    audit: {
      async append(list) {
        for (const e of list) events().push({ ...structuredClone(e), id: s().nextId++ });
      },
      async list(organisationId, f) {
        const rows = events()
          .filter(
            (e) =>
              e.organisationId === organisationId &&
              (f.actorUserId === undefined || e.actorUserId === f.actorUserId) &&
              (f.clientId === undefined || e.clientId === f.clientId) &&
              (f.resourceType === undefined || e.resourceType === f.resourceType) &&
              (f.resourceId === undefined || e.resourceId === f.resourceId) &&
              (f.action === undefined || e.action === f.action || e.action.startsWith(`${f.action}.`)) &&
              (f.from === undefined || e.occurredAt >= f.from) &&
              (f.to === undefined || e.occurredAt < f.to),
          )
          .sort((a, b) => b.id - a.id);
        return { events: structuredClone(rows.slice(f.offset, f.offset + f.limit)), total: rows.length };
      },
    },
  };
}
