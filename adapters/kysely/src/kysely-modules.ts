import type { Repositories } from "@openpractice/core";
import type { Kysely, Migration } from "kysely";
import { accessKyselyModule } from "./modules/access.js";
import { auditKyselyModule } from "./modules/audit.js";
import { appointmentsKyselyModule } from "./modules/appointments.js";
import { billingKyselyModule } from "./modules/billing.js";
import { casesKyselyModule } from "./modules/cases.js";
import { foundationKyselyModule } from "./modules/foundation.js";
import { icdKyselyModule } from "./modules/icd.js";
import { notificationsKyselyModule } from "./modules/notifications.js";
import { patientsKyselyModule } from "./modules/patients.js";
import { payersKyselyModule } from "./modules/payers.js";
import { soapKyselyModule } from "./modules/soap.js";
import { schedulingKyselyModule } from "./modules/scheduling.js";
import { staffKyselyModule } from "./modules/staff.js";
import { waitlistKyselyModule } from "./modules/waitlist.js";
import { eligibilityKyselyModule } from "./modules/eligibility.js";
import { documentsKyselyModule } from "./modules/documents.js";
import { tasksKyselyModule } from "./modules/tasks.js";
import { ssoKyselyModule } from "./modules/sso.js";
import { bulkExportKyselyModule } from "./modules/bulk-export.js";
import { medicareKyselyModule } from "./modules/medicare.js";
import { fhirKyselyModule } from "./modules/fhir.js";
import { webhooksKyselyModule } from "./modules/webhooks.js";
import type { Database } from "./schema.js";
import type { SqlDialectProfile } from "./sql-dialect-profile.js";

/**
 * Every domain of the shared SQL adapter, in one list: the storage's
 * repositories and the migrations are built from it. A new domain adds its
 * module here and its tables' line to `Database` (schema.ts).
 */
export const kyselyModules = [
  foundationKyselyModule,
  patientsKyselyModule,
  appointmentsKyselyModule,
  casesKyselyModule,
  webhooksKyselyModule,
  notificationsKyselyModule,
  soapKyselyModule,
  icdKyselyModule,
  billingKyselyModule,
  staffKyselyModule,
  payersKyselyModule,
  accessKyselyModule,
  auditKyselyModule,
  schedulingKyselyModule,
  waitlistKyselyModule,
  eligibilityKyselyModule,
  documentsKyselyModule,
  tasksKyselyModule,
  ssoKyselyModule,
  medicareKyselyModule,
  fhirKyselyModule,
  bulkExportKyselyModule,
] as const;

type Provided = ReturnType<(typeof kyselyModules)[number]["repositories"]>;
type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Missing = Exclude<keyof Repositories, keyof UnionToIntersection<Provided>>;
/** Compile-time completeness: fails to type-check, naming the keys, when no module provides a repository of the port. */
const everyRepository: [Missing] extends [never] ? true : Missing = true;
void everyRepository;

/** Every repository of the port, on `db` (the pool, or a transaction). */
export function repositoriesOn(db: Kysely<Database>, profile: SqlDialectProfile): Repositories {
  return Object.assign({}, ...kyselyModules.map((m) => m.repositories(db, profile))) as Repositories;
}

/**
 * The shared migrations of every module, plus the engine's own
 * (profile.extraMigrations: 003-<engine> search indexes, 013-postgres search
 * statistics), by name. Names carry a global number and Kysely applies them in
 * name order, whatever module declares them; the next shared number is 049.
 */
export function moduleMigrations(profile: SqlDialectProfile): Record<string, Migration> {
  const all: Record<string, Migration> = { ...profile.extraMigrations };
  for (const module of kyselyModules) {
    for (const [name, migration] of Object.entries(module.migrations(profile))) {
      if (name in all) throw new Error(`migration ${name} is declared twice (module ${module.key})`);
      all[name] = migration;
    }
  }
  return Object.fromEntries(Object.entries(all).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));
}
