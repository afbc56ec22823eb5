import { defineHttpModule } from "../http-module.js";
import { notificationRoutes } from "./notification-routes.js";
import { deviceRoutes } from "./device-routes.js";

/** Notifications, the inbox and push devices. */
export const notificationsHttpModule = defineHttpModule({
  key: "notifications",
  routes: (deps) => [...notificationRoutes(deps), ...deviceRoutes(deps)],
  v1Codes: {
    DEVICE_NOT_FOUND: { code: 4056, status: 404 },
    NOTIFICATION_NOT_FOUND: { code: 4057, status: 404 },
    PUSH_NOT_CONFIGURED: { code: 5031, status: 503 },
  },
  v2Status: {
    DEVICE_NOT_FOUND: 404,
    NOTIFICATION_NOT_FOUND: 404,
    PUSH_NOT_CONFIGURED: 503,
  },
});
