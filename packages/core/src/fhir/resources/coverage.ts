import type { InsuranceCard } from "../../coverages/coverage.js";
import { compact, type FhirResource } from "./fhir-json.js";
import { FHIR_SYSTEMS, US_CORE } from "./fhir-systems.js";

/** Coverage priority as FHIR Coverage.order. */
const ORDER = { primary: 1, secondary: 2, tertiary: 3 } as const;

/** An insurance card as a US Core Coverage. */
export function fhirCoverage(c: InsuranceCard): FhirResource {
  const s = c.subscriber;
  return compact({
    resourceType: "Coverage",
    id: String(c.id),
    meta: { lastUpdated: c.updatedAt.toISOString(), profile: [US_CORE.coverage] },
    identifier: [
      {
        type: { coding: [{ system: FHIR_SYSTEMS.identifierType, code: "MB", display: "Member Number" }] },
        value: c.insuranceNumber,
      },
    ],
    status: c.active ? "active" : "cancelled",
    subscriber:
      s.relationship === "self"
        ? { reference: `Patient/${c.patientId}` }
        : s.firstName || s.lastName
          ? { display: [s.firstName, s.lastName].filter(Boolean).join(" ") }
          : undefined,
    subscriberId: c.insuranceNumber,
    beneficiary: { reference: `Patient/${c.patientId}` },
    relationship: {
      coding: [{ system: FHIR_SYSTEMS.subscriberRelationship, code: s.relationship }],
    },
    period: { start: c.planStartDate ?? undefined, end: c.planEndDate ?? undefined },
    payor: [
      {
        display: c.payer.name,
        identifier: c.payer.payerId ? { system: FHIR_SYSTEMS.payerId, value: c.payer.payerId } : undefined,
      },
    ],
    class: [
      c.groupNumber
        ? { type: { coding: [{ system: FHIR_SYSTEMS.coverageClass, code: "group" }] }, value: c.groupNumber }
        : undefined,
      c.planName
        ? {
            type: { coding: [{ system: FHIR_SYSTEMS.coverageClass, code: "plan" }] },
            value: c.planName,
            name: c.planName,
          }
        : undefined,
    ],
    order: c.priority ? ORDER[c.priority] : undefined,
  });
}
