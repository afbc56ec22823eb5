import { defineKyselyModule } from "../kysely-module.js";
import { foundationMigration } from "../migrations/001-foundation.js";
import { jobsAndLocksMigration } from "../migrations/002-jobs-and-locks.js";
import { clinicDetailsMigration } from "../migrations/017-clinic-details.js";
import { providerDetailsMigration } from "../migrations/018-provider-details.js";
import { appointmentTypeDetailsMigration } from "../migrations/019-appointment-type-details.js";
import { KyselyCatalogRepository } from "../repositories/catalog-repository.js";
import { KyselyJobQueue } from "../repositories/job-queue.js";
import { KyselyLockStore } from "../repositories/lock-store.js";
import { KyselyOrganisationRepository } from "../repositories/organisation-repository.js";
import { KyselyOutboxRepository } from "../repositories/outbox-repository.js";
import { KyselyRateLimitStore } from "../repositories/rate-limit-store.js";

/** The platform: organisations with their directory (clinics, providers, categories, cancellation reasons), the outbox, rate-limit counters, the job queue and store locks. */
export const foundationKyselyModule = defineKyselyModule({
  key: "foundation",
  repositories: (db, profile) => ({
    organisations: new KyselyOrganisationRepository(db, profile),
    catalog: new KyselyCatalogRepository(db, profile),
    outbox: new KyselyOutboxRepository(db),
    rateLimits: new KyselyRateLimitStore(db, profile),
    jobs: new KyselyJobQueue(db, profile),
    locks: new KyselyLockStore(db, profile),
  }),
  migrations: (profile) => ({
    "001-foundation": foundationMigration(profile),
    "002-jobs-and-locks": jobsAndLocksMigration(profile),
    "017-clinic-details": clinicDetailsMigration(),
    "018-provider-details": providerDetailsMigration(profile),
    "019-appointment-type-details": appointmentTypeDetailsMigration(),
  }),
  tables: [
    "organisations",
    "clinics",
    "providers",
    "provider_clinics",
    "outbox",
    "rate_limit_counters",
    "appointment_categories",
    "cancellation_reasons",
    "organisation_specializations",
    "jobs",
    "locks",
  ],
});
