import { defineKyselyModule } from "../kysely-module.js";
import { appointmentsMigration } from "../migrations/004-appointments.js";
import { KyselyAppointmentRepository } from "../repositories/appointment-repository.js";

/** Appointments, their categories and history. */
export const appointmentsKyselyModule = defineKyselyModule({
  key: "appointments",
  repositories: (db, profile) => ({
    appointments: new KyselyAppointmentRepository(db, profile),
  }),
  migrations: (profile) => ({
    "004-appointments": appointmentsMigration(profile),
  }),
  tables: ["appointments", "appointment_category_links", "appointment_history"],
});
