import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { AppointmentRepository } from "./appointment-repository.js";
import type { AppointmentServiceRepositories } from "./appointment-service-repositories.js";
import { APPOINTMENT_ERROR_CODES } from "./appointment-errors.js";
import { APPOINTMENT_EVENTS } from "./appointment-events.js";
import { AppointmentService } from "./appointment-service.js";

/** Appointments: booking, the state machine, visit tracking against cases. */
export const appointmentsModule = defineCoreModule({
  key: "appointments",
  repositories: owns<{ appointments: AppointmentRepository }>(),
  createServices: ({ storage, clock }: ModuleDependencies<AppointmentServiceRepositories>) => ({
    appointments: new AppointmentService({ storage, clock }),
  }),
  errorCodes: APPOINTMENT_ERROR_CODES,
  events: APPOINTMENT_EVENTS,
});
