import type { Repositories } from "@openpractice/core";
import { describeAppointmentConformance } from "./conformance/appointment-conformance.js";
import { describeCoverageConformance } from "./conformance/coverage-conformance.js";
import { describeEligibilityConformance } from "./conformance/eligibility-conformance.js";
import { describeFoundationConformance } from "./conformance/foundation-conformance.js";
import { describeIcdConformance } from "./conformance/icd-conformance.js";
import { describeNotificationConformance } from "./conformance/notification-conformance.js";
import { describePayerConformance } from "./conformance/payer-conformance.js";
import { describeScheduleConformance } from "./conformance/schedule-conformance.js";
import { describeSoapNoteConformance } from "./conformance/soap-note-conformance.js";
import { describeStaffConformance } from "./conformance/staff-conformance.js";
import { describeTaskConformance } from "./conformance/task-conformance.js";
import type { DomainConformance } from "./conformance/storage-fixture.js";
import { describeWaitlistConformance } from "./conformance/waitlist-conformance.js";
import { describeWebhookConformance } from "./conformance/webhook-conformance.js";
import { memoryApiClients, memoryAudit } from "./memory/memory-access.js";
import { memoryAppointments } from "./memory/memory-appointments.js";
import { memoryBillingCodes } from "./memory/memory-billing-codes.js";
import { memoryFeeSchedules } from "./memory/memory-fee-schedules.js";
import { memoryMedicare } from "./memory/memory-medicare.js";
import { memoryFhir } from "./memory/memory-fhir.js";
import { memoryBulkExport } from "./memory/memory-bulk-export.js";
import { describeClientAssertionConformance } from "./conformance/client-assertion-conformance.js";
import { describeFhirConformance } from "./conformance/fhir-conformance.js";
import { describeBulkExportConformance } from "./conformance/bulk-export-conformance.js";
import { describeMedicareConformance } from "./conformance/medicare-conformance.js";
import { memoryCases } from "./memory/memory-cases.js";
import { memoryDocuments } from "./memory/memory-documents.js";
import { memoryEligibility } from "./memory/memory-eligibility.js";
import { memoryFoundation } from "./memory/memory-foundation.js";
import { memoryIcd } from "./memory/memory-icd.js";
import type { MemoryModule } from "./memory/memory-module.js";
import { memoryNotifications } from "./memory/memory-notifications.js";
import { memoryPayers } from "./memory/memory-payers.js";
import { memorySchedules } from "./memory/memory-scheduling.js";
import {
  memoryClaims,
  memoryPlansOfCare,
  memorySoapDocuments,
  memoryTreatmentSheets,
} from "./memory/memory-soap-completion.js";
import { memorySoapNotes } from "./memory/memory-soap-notes.js";
import { memoryStaff } from "./memory/memory-staff.js";
import { memoryTasks } from "./memory/memory-tasks.js";
import { memorySso } from "./memory/memory-sso.js";
import { describeSsoConformance } from "./conformance/sso-conformance.js";
import type { MemoryState } from "./memory/memory-state.js";
import { memoryWaitlist } from "./memory/memory-waitlist.js";
import { memoryWebhooks } from "./memory/memory-webhooks.js";

/** A domain of the kit: its repositories in the memory storage and its part of the storage conformance suite. */
export interface TestingDomain extends MemoryModule {
  /**
   * Its describe block in runStorageConformance; null for a domain whose repositories the suite does not cover
   * yet (their behaviour is tested through the HTTP suites on every engine).
   */
  readonly conformance: DomainConformance | null;
}

/**
 * Every domain of the kit, in one list (as kysely-modules.ts is for the SQL engines): MemoryStorage's
 * repositories and the parts of runStorageConformance are built from it. A new domain adds one line here.
 */
export const testingDomains = [
  { key: "foundation", repositories: memoryFoundation, conformance: describeFoundationConformance },
  {
    key: "appointments",
    repositories: (s: () => MemoryState) => ({ appointments: memoryAppointments(s) }),
    conformance: describeAppointmentConformance,
  },
  { key: "cases", repositories: memoryCases, conformance: describeCoverageConformance },
  {
    key: "webhooks",
    repositories: (s: () => MemoryState) => ({ webhooks: memoryWebhooks(s) }),
    conformance: describeWebhookConformance,
  },
  {
    key: "notifications",
    repositories: (s: () => MemoryState) => ({ notifications: memoryNotifications(s) }),
    conformance: describeNotificationConformance,
  },
  {
    key: "soap",
    repositories: (s: () => MemoryState) => ({
      soapNotes: memorySoapNotes(s),
      treatmentSheets: memoryTreatmentSheets(s),
      plansOfCare: memoryPlansOfCare(s),
      soapDocuments: memorySoapDocuments(s),
      claims: memoryClaims(s),
    }),
    conformance: describeSoapNoteConformance,
  },
  { key: "icd", repositories: (s: () => MemoryState) => ({ icd: memoryIcd(s) }), conformance: describeIcdConformance },
  {
    key: "billing",
    repositories: (s: () => MemoryState) => ({
      billingCodes: memoryBillingCodes(s),
      feeSchedules: memoryFeeSchedules(s),
    }),
    conformance: null,
  },
  { key: "staff", repositories: memoryStaff, conformance: describeStaffConformance },
  { key: "payers", repositories: memoryPayers, conformance: describePayerConformance },
  { key: "access", repositories: memoryApiClients, conformance: describeClientAssertionConformance },
  { key: "audit", repositories: memoryAudit, conformance: null },
  { key: "scheduling", repositories: memorySchedules, conformance: describeScheduleConformance },
  { key: "waitlist", repositories: memoryWaitlist, conformance: describeWaitlistConformance },
  { key: "eligibility", repositories: memoryEligibility, conformance: describeEligibilityConformance },
  { key: "documents", repositories: memoryDocuments, conformance: null },
  { key: "tasks", repositories: memoryTasks, conformance: describeTaskConformance },
  { key: "sso", repositories: memorySso, conformance: describeSsoConformance },
  { key: "medicare", repositories: memoryMedicare, conformance: describeMedicareConformance },
  { key: "fhir", repositories: memoryFhir, conformance: describeFhirConformance },
  { key: "bulkExport", repositories: memoryBulkExport, conformance: describeBulkExportConformance },
] as const satisfies readonly TestingDomain[];

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Provided = keyof UnionToIntersection<ReturnType<(typeof testingDomains)[number]["repositories"]>>;
type Missing = Exclude<keyof Repositories, Provided>;
/** Compile-time completeness: fails to type-check, naming the keys, when no domain provides a repository of the port. */
const everyRepository: [Missing] extends [never] ? true : Missing = true;
void everyRepository;
