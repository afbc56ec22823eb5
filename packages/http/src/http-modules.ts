import { schedulingHttpModule } from "./scheduling/module.js";
import { waitlistHttpModule } from "./waitlist/module.js";
import { eligibilityHttpModule } from "./eligibility/module.js";
import { documentsHttpModule } from "./documents/module.js";
import { tasksHttpModule } from "./tasks/module.js";
import { ssoHttpModule } from "./sso/module.js";
import { medicareHttpModule } from "./medicare/module.js";
import { fhirHttpModule } from "./fhir/module.js";
import { coveragesHttpModule } from "./coverages/module.js";
import type { ErrorCode } from "@openpractice/core";
import { accessHttpModule } from "./access/module.js";
import { auditHttpModule } from "./audit/module.js";
import { appointmentsHttpModule } from "./appointments/module.js";
import { billingHttpModule } from "./billing/module.js";
import { clinicsHttpModule } from "./clinics/module.js";
import { staffHttpModule } from "./staff/module.js";
import { casesHttpModule } from "./cases/module.js";
import { catalogHttpModule } from "./catalog/module.js";
import type { V1ErrorMapping } from "./http-module.js";
import { icdHttpModule } from "./icd/module.js";
import { notificationsHttpModule } from "./notifications/module.js";
import { patientsHttpModule } from "./patients/module.js";
import { payersHttpModule } from "./payers/module.js";
import { providersHttpModule } from "./providers/module.js";
import { soapHttpModule } from "./soap/module.js";
import { systemHttpModule } from "./system/module.js";
import { webhooksHttpModule } from "./webhooks/module.js";

/**
 * Every domain of the HTTP API, in one list: the route table and the v1 and
 * v2 error maps are built from it. A new domain adds its module here.
 */
export const httpModules = [
  patientsHttpModule,
  appointmentsHttpModule,
  casesHttpModule,
  webhooksHttpModule,
  notificationsHttpModule,
  soapHttpModule,
  icdHttpModule,
  billingHttpModule,
  staffHttpModule,
  clinicsHttpModule,
  providersHttpModule,
  catalogHttpModule,
  payersHttpModule,
  accessHttpModule,
  auditHttpModule,
  schedulingHttpModule,
  waitlistHttpModule,
  coveragesHttpModule,
  eligibilityHttpModule,
  documentsHttpModule,
  tasksHttpModule,
  ssoHttpModule,
  medicareHttpModule,
  fhirHttpModule,
  systemHttpModule,
] as const;

type Modules = (typeof httpModules)[number];
type MappedInV1 = { [M in Modules as string]: keyof M["v1Codes"] }[string];
type MappedInV2 = { [M in Modules as string]: keyof M["v2Status"] }[string];

/**
 * Compile-time exhaustiveness: these lines fail to type-check, naming the
 * codes, when a core error code has no v1 or no v2 mapping in any module.
 */
const everyCodeInV1: [Exclude<ErrorCode, MappedInV1>] extends [never] ? true : Exclude<ErrorCode, MappedInV1> = true;
const everyCodeInV2: [Exclude<ErrorCode, MappedInV2>] extends [never] ? true : Exclude<ErrorCode, MappedInV2> = true;
void everyCodeInV1;
void everyCodeInV2;

function mergeMaps<T>(pick: (m: Modules) => Readonly<Partial<Record<ErrorCode, T>>>): Readonly<Record<ErrorCode, T>> {
  const merged: Partial<Record<ErrorCode, T>> = {};
  for (const module of httpModules) {
    for (const [code, value] of Object.entries(pick(module)) as Array<[ErrorCode, T]>) {
      if (code in merged) throw new Error(`error code ${code} is mapped by two HTTP modules (${module.key})`);
      merged[code] = value;
    }
  }
  return Object.freeze(merged as Record<ErrorCode, T>);
}

/**
 * Each domain error code once, as the v1 envelope shows it: a numeric code and
 * the HTTP status. Spec 7.1's SOAP creation errors go with HTTP 200 (a route's
 * v1ErrorStatus); the rest use the status of their class.
 */
export const V1_ERROR_MAP: Readonly<Record<ErrorCode, V1ErrorMapping>> = mergeMaps((m) => m.v1Codes);

/** Each domain error code once, as a v2 HTTP status; the code itself is the v2 `error.code`. */
export const V2_STATUS_MAP: Readonly<Record<ErrorCode, number>> = mergeMaps((m) => m.v2Status);
