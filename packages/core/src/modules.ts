import { accessModule } from "./access/module.js";
import { auditModule } from "./audit/module.js";
import { appointmentsModule } from "./appointments/module.js";
import { billingModule } from "./billing/module.js";
import { casesModule } from "./cases/module.js";
import { coveragesModule } from "./coverages/module.js";
import { eligibilityModule } from "./eligibility/module.js";
import { catalogModule } from "./catalog/module.js";
import { icdModule } from "./icd/module.js";
import { notificationsModule } from "./notifications/module.js";
import { organisationsModule } from "./organisations/module.js";
import { patientsModule } from "./patients/module.js";
import { payersModule } from "./payers/module.js";
import { rateLimitsModule } from "./rate-limits/module.js";
import { soapModule } from "./soap/module.js";
import { schedulingModule } from "./scheduling/module.js";
import { staffModule } from "./staff/module.js";
import { systemModule } from "./system/module.js";
import { waitlistModule } from "./waitlist/module.js";
import { webhooksModule } from "./webhooks/module.js";

/**
 * Every domain of core, in one list: the Practice's services, the error
 * catalogue, the event catalogue and the job table are built from it. A new
 * domain adds its module here (and one line in packages/http's and
 * adapters/kysely's lists).
 */
export const coreModules = [
  systemModule,
  organisationsModule,
  rateLimitsModule,
  catalogModule,
  patientsModule,
  appointmentsModule,
  casesModule,
  webhooksModule,
  notificationsModule,
  soapModule,
  icdModule,
  billingModule,
  staffModule,
  payersModule,
  accessModule,
  auditModule,
  schedulingModule,
  waitlistModule,
  coveragesModule,
  eligibilityModule,
] as const;

type CoreModules = typeof coreModules;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;

/** The services of every module, by property name (practice.patients, practice.soapNotes, …). */
export type PracticeServices = UnionToIntersection<ReturnType<CoreModules[number]["createServices"]>>;

/** Every module's event definitions, merged by event type. */
export type EventDefinitions = UnionToIntersection<CoreModules[number]["events"]>;
