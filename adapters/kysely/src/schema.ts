import type { FoundationSchema } from "./tables/foundation.js";
import type { PatientsSchema } from "./tables/patients.js";
import type { AppointmentsSchema } from "./tables/appointments.js";
import type { CasesSchema } from "./tables/cases.js";
import type { WebhooksSchema } from "./tables/webhooks.js";
import type { NotificationsSchema } from "./tables/notifications.js";
import type { SoapSchema } from "./tables/soap.js";
import type { IcdSchema } from "./tables/icd.js";
import type { BillingSchema } from "./tables/billing.js";
import type { StaffSchema } from "./tables/staff.js";
import type { PayersSchema } from "./tables/payers.js";
import type { AccessSchema } from "./tables/access.js";
import type { AuditSchema } from "./tables/audit.js";
import type { SchedulingSchema } from "./tables/scheduling.js";
import type { WaitlistSchema } from "./tables/waitlist.js";
import type { EligibilitySchema } from "./tables/eligibility.js";
import type { DocumentsSchema } from "./tables/documents.js";
import type { TasksSchema } from "./tables/tasks.js";
import type { SsoSchema } from "./tables/sso.js";
import type { BulkExportSchema } from "./tables/bulk-export.js";
import type { MedicareSchema } from "./tables/medicare.js";

/**
 * The database every engine shares: each domain's tables (tables/<domain>.ts), one line per domain. One type
 * for all of them because `Kysely<Database>` is invariant: every repository and migration takes the same one.
 * Timestamps are ISO 8601 UTC strings of fixed width (2026-01-02T03:04:05.678Z, db-time.ts): they sort as
 * text, compare the same on every engine and never depend on a server or session time zone.
 */
export interface Database
  extends FoundationSchema,
    PatientsSchema,
    AppointmentsSchema,
    CasesSchema,
    WebhooksSchema,
    NotificationsSchema,
    SoapSchema,
    IcdSchema,
    BillingSchema,
    StaffSchema,
    PayersSchema,
    AccessSchema,
    AuditSchema,
    SchedulingSchema,
    WaitlistSchema,
    EligibilitySchema,
    DocumentsSchema,
    TasksSchema,
    SsoSchema,
    BulkExportSchema,
    MedicareSchema {}
