import { DomainError, type InsuranceCard, type Practice } from "@openpractice/core";
import { scopePair } from "../define-route.js";
import type { FhirResource, FhirResourceType } from "./fhir-resource-type.js";
import { FHIR_SYSTEMS, US_CORE } from "./fhir-systems.js";
import { commonIds, compact, idsOfTokens, referencedIds } from "./fhir-values.js";

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

/** Coverage: a patient's insurance cards (v2 /v2/patients/{id}/coverages); a search names the patient. */
export function coverageResourceType(practice: Practice): FhirResourceType {
  return {
    type: "Coverage",
    profile: US_CORE.coverage,
    scopes: scopePair("coverages").read,
    source: "the patients' coverages (insurance cards)",
    sorts: ["_id"],
    searchParams: [
      { name: "patient", type: "reference", documentation: "Patient/{id} (a search names the patient or beneficiary)" },
      { name: "beneficiary", type: "reference", documentation: "Patient/{id}, as patient" },
      { name: "_id", type: "token", documentation: "The coverage id (comma-separated: any of them)" },
    ],
    async read({ principal }, id) {
      return fhirCoverage(await practice.fhirSearch.coverage(principal, /^[1-9]\d{0,9}$/.test(id) ? Number(id) : 0));
    },
    async search({ principal }, search) {
      const p = search.params;
      const patients = commonIds([
        ...(referencedIds("patient", "Patient", p.get("patient")) ?? []),
        ...(referencedIds("beneficiary", "Patient", p.get("beneficiary")) ?? []),
      ]);
      if (patients === undefined || patients.length === 0) {
        if (patients === undefined)
          throw DomainError.invalidParameter("patient", null, "a Coverage search names the patient (or beneficiary)");
        return { resources: [], hasMore: false };
      }
      if (patients.length > 1)
        throw DomainError.invalidParameter("patient", p.get("patient")?.[0]?.value, "takes one patient");
      const ids = commonIds(idsOfTokens(p.get("_id"), null));
      let cards: InsuranceCard[];
      try {
        cards = await practice.coverages.list(principal, patients[0]!);
      } catch (error) {
        if (error instanceof DomainError && error.code === "PATIENT_NOT_FOUND")
          return { resources: [], hasMore: false };
        throw error;
      }
      const matching = cards
        .filter((c) => !ids || ids.includes(c.id))
        .sort((a, b) => (search.sort[0]?.descending ? b.id - a.id : a.id - b.id));
      return {
        resources: matching.slice(search.offset, search.offset + search.count).map(fhirCoverage),
        hasMore: matching.length > search.offset + search.count,
      };
    },
  };
}
