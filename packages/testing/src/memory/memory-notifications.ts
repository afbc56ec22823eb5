import type { Notification, NotificationRepository, Recipient } from "@openpractice/core";
import type { MemoryState } from "./memory-state.js";

const of = (orgId: number, r: Recipient) => (x: { organisationId: number } & Recipient) =>
  x.organisationId === orgId && x.userType === r.userType && x.userId === r.userId;
const newestFirst = (a: Notification, b: Notification) =>
  b.createdAt.getTime() - a.createdAt.getTime() || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0);

/**
 * Devices, notifications and their pushes in memory. Each call checks and
 * writes without awaiting in between, so "unique per organisation" (endpoint,
 * idempotency key) holds as a unique index would.
 */
export function memoryNotifications(s: () => MemoryState): NotificationRepository {
  const devices = () => [...s().devices.values()];
  const pushKey = (notificationId: string, deviceId: string) => `${notificationId}|${deviceId}`;
  return {
    async upsertDevice(d) {
      const existing = devices().find((x) => x.organisationId === d.organisationId && x.endpoint === d.endpoint);
      const stored = existing
        ? {
            ...existing,
            userType: d.userType,
            userId: d.userId,
            keys: { ...d.keys },
            label: d.label,
            updatedAt: d.updatedAt,
          }
        : structuredClone(d);
      s().devices.set(stored.id, stored);
      return { device: structuredClone(stored), created: !existing };
    },
    findDevice: async (orgId, id) => structuredClone([s().devices.get(id)].find((d) => d?.organisationId === orgId)),
    listDevices: async (orgId, r) => structuredClone(devices().filter(of(orgId, r))),
    deleteDevice: async (orgId, id) => s().devices.get(id)?.organisationId === orgId && s().devices.delete(id),

    async insertNotification(n) {
      if (
        n.idempotencyKey !== null &&
        [...s().notifications.values()].some(
          (x) => x.organisationId === n.organisationId && x.idempotencyKey === n.idempotencyKey,
        )
      )
        return false;
      s().notifications.set(n.id, structuredClone(n));
      return true;
    },
    findNotification: async (orgId, id) =>
      structuredClone([s().notifications.get(id)].find((n) => n?.organisationId === orgId)),
    findNotificationById: async (id) => structuredClone(s().notifications.get(id)),
    findByIdempotencyKey: async (orgId, key) =>
      structuredClone(
        [...s().notifications.values()].find((n) => n.organisationId === orgId && n.idempotencyKey === key),
      ),
    async setDeliveryStatus(id, status, at) {
      const n = s().notifications.get(id);
      if (n) Object.assign(n, { deliveryStatus: status, updatedAt: at });
    },
    async listInbox(orgId, r, filter) {
      const all = [...s().notifications.values()].filter(of(orgId, r)).sort(newestFirst);
      const listed = filter.unreadOnly ? all.filter((n) => n.readAt === null) : all;
      return {
        entries: structuredClone(listed.slice(filter.offset, filter.offset + filter.limit)),
        total: listed.length,
        unread: all.filter((n) => n.readAt === null).length,
      };
    },
    async markRead(orgId, id, at) {
      const n = s().notifications.get(id);
      if (!n || n.organisationId !== orgId) return undefined;
      if (n.readAt === null) Object.assign(n, { readAt: at, updatedAt: at });
      return structuredClone(n);
    },
    async markAllRead(orgId, r, at) {
      const unread = [...s().notifications.values()].filter((n) => of(orgId, r)(n) && n.readAt === null);
      for (const n of unread) Object.assign(n, { readAt: at, updatedAt: at });
      return unread.length;
    },

    async insertPush(p) {
      const key = pushKey(p.notificationId, p.deviceId);
      if (!s().pushes.has(key)) s().pushes.set(key, structuredClone(p));
    },
    listPushes: async (notificationId) =>
      structuredClone([...s().pushes.values()].filter((p) => p.notificationId === notificationId)),
    async updatePush(p) {
      const key = pushKey(p.notificationId, p.deviceId);
      if (s().pushes.has(key)) s().pushes.set(key, structuredClone(p));
    },
    appendAttempt: async (a) => void s().pushAttempts.push(structuredClone(a)),
    attempts: async (notificationId) =>
      structuredClone(s().pushAttempts.filter((a) => a.notificationId === notificationId)),
  };
}
