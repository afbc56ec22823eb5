import { defineCoreModule } from "../modules/core-module.js";
import { NotificationDeliveryService } from "./delivery-service.js";
import { DeviceService } from "./device-service.js";
import { NOTIFICATION_ERROR_CODES } from "./notification-errors.js";
import { NotificationService } from "./notification-service.js";
import { noPushTransport, type PushTransport } from "./push-transport.js";

/** In-app notifications, push devices and Web Push deliveries (the push job's retry policy lives with the runner). */
export const notificationsModule = defineCoreModule({
  key: "notifications",
  createServices: ({ storage, clock, ids, settings }) => {
    // Without a configured transport pushes are refused (recorded), but browsers can still subscribe with the key.
    const publicKey = settings.vapid?.publicKey ?? null;
    const transport: PushTransport =
      settings.pushTransport ?? (publicKey === null ? noPushTransport : Object.freeze({ ...noPushTransport, vapidPublicKey: publicKey }));
    return {
      notifications: new NotificationService({ storage, clock, ids, transport }),
      pushDevices: new DeviceService({ storage, clock, ids, allowHttp: settings.allowHttpPushEndpoints }),
      notificationDeliveries: new NotificationDeliveryService({ storage, clock, transport }),
    };
  },
  errorCodes: NOTIFICATION_ERROR_CODES,
  events: {},
});
