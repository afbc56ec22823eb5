import { defineKyselyModule } from "../kysely-module.js";
import { notificationsMigration } from "../migrations/011-notifications.js";
import { KyselyNotificationRepository } from "../repositories/notification-repository.js";

/** Notifications, push devices, pushes and their attempts. */
export const notificationsKyselyModule = defineKyselyModule({
  key: "notifications",
  repositories: (db, profile) => ({
    notifications: new KyselyNotificationRepository(db, profile),
  }),
  migrations: (profile) => ({
    "011-notifications": notificationsMigration(profile),
  }),
  tables: ["notification_devices", "notifications", "notification_pushes", "notification_push_attempts"],
});
