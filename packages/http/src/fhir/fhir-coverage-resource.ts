import { DomainError, fhirCoverage, type Practice, US_CORE } from "@openpractice/core";
import { scopePair } from "../define-route.js";
import type { FhirResourceType } from "./fhir-resource-type.js";
import { commonIds, idsOfTokens, recordId, referencedIds, unlessMissing } from "./fhir-values.js";

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
      return fhirCoverage(await practice.fhirSearch.coverage(principal, recordId(id)));
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
      const cards = await unlessMissing(practice.coverages.list(principal, patients[0]!), "PATIENT_NOT_FOUND");
      if (!cards) return { resources: [], hasMore: false };
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
