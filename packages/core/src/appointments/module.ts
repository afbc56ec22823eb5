import { defineCoreModule } from "../modules/core-module.js";
import { APPOINTMENT_ERROR_CODES } from "./appointment-errors.js";
import { APPOINTMENT_EVENTS } from "./appointment-events.js";
import { AppointmentService } from "./appointment-service.js";

/** Appointments: booking, the state machine, visit tracking against cases. */
export const appointmentsModule = defineCoreModule({
  key: "appointments",
  createServices: ({ storage, clock }) => ({ appointments: new AppointmentService({ storage, clock }) }),
  errorCodes: APPOINTMENT_ERROR_CODES,
  events: APPOINTMENT_EVENTS,
});
