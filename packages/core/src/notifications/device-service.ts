import { notificationError } from "./notification-errors.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import type { Ids } from "../kernel/ids.js";
import type { Storage } from "../kernel/storage.js";
import type { NotificationServiceRepositories } from "./notification-service-repositories.js";
import type { Device, DeviceDraft } from "./notification.js";
import { assertRecipient, assertValidDevice, type RecipientInput } from "./notification-rules.js";

export const deviceNotFound = (id: unknown) =>
  notificationError("DEVICE_NOT_FOUND", "Device not found", { device_id: id });

/**
 * Push devices of the principal's organisation's users. A device is one Web
 * Push subscription; one user may have many. Registering an endpoint the
 * organisation already has moves that device to the new user and keys, so a
 * shared browser never pushes to the previous user.
 */
export class DeviceService {
  constructor(
    private readonly deps: {
      storage: Storage<NotificationServiceRepositories>;
      clock: Clock;
      ids: Ids;
      allowHttp: boolean;
      httpSetting: string;
    },
  ) {}

  async register(principal: Principal, draft: DeviceDraft): Promise<{ device: Device; created: boolean }> {
    const valid = assertValidDevice(draft, { allowHttp: this.deps.allowHttp, httpSetting: this.deps.httpSetting });
    const now = this.deps.clock.now();
    // Writes run in transactions so an audited request commits its audit entry with them.
    return this.deps.storage.transaction((tx) =>
      tx.notifications.upsertDevice({
        id: `dev_${this.deps.ids.uuid()}`,
        organisationId: principal.organisationId,
        ...valid.recipient,
        endpoint: valid.endpoint,
        keys: valid.keys,
        label: valid.label,
        createdAt: now,
        updatedAt: now,
      }),
    );
  }

  async list(principal: Principal, recipient: RecipientInput): Promise<Device[]> {
    return this.deps.storage.repositories.notifications.listDevices(
      principal.organisationId,
      assertRecipient(recipient),
    );
  }

  async get(principal: Principal, id: string): Promise<Device> {
    const device = await this.deps.storage.repositories.notifications.findDevice(principal.organisationId, id);
    if (!device) throw deviceNotFound(id);
    return device;
  }

  async remove(principal: Principal, id: string): Promise<void> {
    // Refused inside the transaction, so an audited request's entry is rolled back with it.
    await this.deps.storage.transaction(async (tx) => {
      if (!(await tx.notifications.deleteDevice(principal.organisationId, id))) throw deviceNotFound(id);
    });
  }
}
