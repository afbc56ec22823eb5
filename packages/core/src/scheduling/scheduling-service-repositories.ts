import type { AppointmentServiceRepositories } from "../appointments/appointment-service-repositories.js";
import type { BlockRepository } from "./block-repository.js";
import type { ScheduleRepository } from "./schedule-repository.js";

/** Time a pending waitlist offer holds for a provider, as slot searches read it. */
export interface HeldSlot {
  id: number;
  providerId: number;
  startsAt: Date;
  endsAt: Date;
}

/**
 * The repositories working hours, blocks, slots and v2 bookings read and write through: the appointments' (a
 * booking is an appointment), their own, and the time the waitlist's offers hold. The waitlist sits above
 * scheduling, so its port is declared here as the one call slot searches make.
 */
export interface SchedulingServiceRepositories extends AppointmentServiceRepositories {
  schedules: ScheduleRepository;
  blocks: BlockRepository;
  waitlist: {
    /** Pending offers of the providers (v2 ids) that overlap [from, to) and expire after `now`. */
    listHolds(
      organisationId: number,
      providerIds: readonly number[],
      from: Date,
      to: Date,
      now: Date,
    ): Promise<HeldSlot[]>;
  };
}
