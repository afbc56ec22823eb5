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
    // Read at each use: background work may set the transport after the instance is built. Without one pushes are
    // refused (recorded), but browsers can still subscribe with the instance's key.
    const transport: PushTransport = {
      get vapidPublicKey() {
        return settings.outbound.pushTransport?.vapidPublicKey ?? settings.vapid?.publicKey ?? null;
      },
      send: (target, payload, options) =>
        (settings.outbound.pushTransport ?? noPushTransport).send(target, payload, options),
    };
    return {
      notifications: new NotificationService({ storage, clock, ids, transport }),
      pushDevices: new DeviceService({
        storage,
        clock,
        ids,
        allowHttp: settings.allowHttpPushEndpoints,
        httpSetting: settings.settingNames.allowHttpPushEndpoints,
      }),
      notificationDeliveries: new NotificationDeliveryService({ storage, clock, transport }),
    };
  },
  errorCodes: NOTIFICATION_ERROR_CODES,
  events: {},
});
