import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import { booleanOption, type OptionValues } from "../kernel/options.js";
import type { NotificationRepository } from "./notification-repository.js";
import type { NotificationServiceRepositories } from "./notification-service-repositories.js";
import { NotificationDeliveryService } from "./delivery-service.js";
import { DeviceService } from "./device-service.js";
import { NOTIFICATION_ERROR_CODES } from "./notification-errors.js";
import { NotificationService } from "./notification-service.js";
import { noPushTransport, type PushTransport } from "./push-transport.js";

const options = {
  /** Accept http:// push endpoints (a local push service in development); default false (https only). */
  allowHttpPushEndpoints: booleanOption({ default: false, development: true }),
};

/** What the notification services read of the practice's settings besides their options. */
export interface NotificationSettings extends OptionValues<typeof options> {
  /** The instance's Web Push key pair: browsers subscribe with its public key. */
  readonly vapid: { readonly publicKey: string } | null;
  /** The push transport set at start, read at each use. */
  readonly outbound: { readonly pushTransport?: PushTransport | undefined };
  /** How refusals name allowHttpPushEndpoints. */
  readonly settingNames: { readonly allowHttpPushEndpoints: string };
}

/** In-app notifications, push devices and Web Push deliveries (the push job's retry policy lives with the runner). */
export const notificationsModule = defineCoreModule({
  key: "notifications",
  repositories: owns<{ notifications: NotificationRepository }>(),
  options,
  createServices: ({
    storage,
    clock,
    ids,
    settings,
  }: ModuleDependencies<NotificationServiceRepositories, NotificationSettings>) => {
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
