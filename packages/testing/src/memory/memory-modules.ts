import { memoryWaitlist } from "./memory-waitlist.js";
import { memoryEligibility } from "./memory-eligibility.js";
import type { Repositories } from "@openpractice/core";
import { memoryApiClients, memoryAudit } from "./memory-access.js";
import { memoryAppointments } from "./memory-appointments.js";
import { memoryBillingCodes } from "./memory-billing-codes.js";
import { memoryCases } from "./memory-cases.js";
import { memoryFoundation } from "./memory-foundation.js";
import { memoryIcd } from "./memory-icd.js";
import type { MemoryModule } from "./memory-module.js";
import { memoryNotifications } from "./memory-notifications.js";
import {
  memoryClaims,
  memoryPlansOfCare,
  memorySoapDocuments,
  memoryTreatmentSheets,
} from "./memory-soap-completion.js";
import { memorySoapNotes } from "./memory-soap-notes.js";
import { memoryPayers } from "./memory-payers.js";
import { memoryStaff } from "./memory-staff.js";
import { memorySchedules } from "./memory-scheduling.js";
import type { MemoryState } from "./memory-state.js";
import { memoryWebhooks } from "./memory-webhooks.js";

/**
 * Every domain of the memory storage, in one list (as kysely-modules.ts is for
 * the SQL engines): the repositories are built from it. A new domain adds its
 * module here.
 */
export const memoryModules = [
  { key: "foundation", repositories: memoryFoundation },
  { key: "appointments", repositories: (s: () => MemoryState) => ({ appointments: memoryAppointments(s) }) },
  { key: "cases", repositories: memoryCases },
  { key: "webhooks", repositories: (s: () => MemoryState) => ({ webhooks: memoryWebhooks(s) }) },
  { key: "notifications", repositories: (s: () => MemoryState) => ({ notifications: memoryNotifications(s) }) },
  {
    key: "soap",
    repositories: (s: () => MemoryState) => ({
      soapNotes: memorySoapNotes(s),
      treatmentSheets: memoryTreatmentSheets(s),
      plansOfCare: memoryPlansOfCare(s),
      soapDocuments: memorySoapDocuments(s),
      claims: memoryClaims(s),
    }),
  },
  { key: "icd", repositories: (s: () => MemoryState) => ({ icd: memoryIcd(s) }) },
  { key: "billing", repositories: (s: () => MemoryState) => ({ billingCodes: memoryBillingCodes(s) }) },
  { key: "staff", repositories: memoryStaff },
  { key: "payers", repositories: memoryPayers },
  { key: "access", repositories: memoryApiClients },
  { key: "audit", repositories: memoryAudit },
  { key: "scheduling", repositories: memorySchedules },
  { key: "waitlist", repositories: memoryWaitlist },
  { key: "eligibility", repositories: memoryEligibility },
] as const satisfies readonly MemoryModule[];

type UnionToIntersection<U> = (U extends unknown ? (u: U) => void : never) extends (i: infer I) => void ? I : never;
type Provided = keyof UnionToIntersection<ReturnType<(typeof memoryModules)[number]["repositories"]>>;
type Missing = Exclude<keyof Repositories, Provided>;
/** Compile-time completeness: fails to type-check, naming the keys, when no module provides a repository of the port. */
const everyRepository: [Missing] extends [never] ? true : Missing = true;
void everyRepository;

/** Every repository of the port over the state. */
export function memoryRepositories(s: () => MemoryState): Repositories {
  return Object.assign({}, ...memoryModules.map((m) => m.repositories(s))) as Repositories;
}
