import type { JobQueue } from "../kernel/job-queue.js";
import type { NotificationRepository } from "./notification-repository.js";

/** The repositories notifications, devices and push deliveries read and write through: each a port of the feature that owns it. */
export interface NotificationServiceRepositories {
  notifications: NotificationRepository;
  jobs: JobQueue;
}
