import type { NotificationRepository } from "../notifications/notification-repository.js";
import type { SchedulingServiceRepositories } from "../scheduling/scheduling-service-repositories.js";
import type { WaitlistRepository } from "./waitlist-repository.js";

/** The repositories the waitlist reads and writes through: scheduling's (an accepted offer is a booking), its own, the inbox. */
export interface WaitlistServiceRepositories extends SchedulingServiceRepositories {
  waitlist: WaitlistRepository;
  notifications: NotificationRepository;
}
