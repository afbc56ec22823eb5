import type { Principal } from "../auth/principal.js";
import type { Storage } from "../kernel/storage.js";
import { DomainError } from "../kernel/domain-error.js";
import { fhirError } from "./fhir-errors.js";
import { foldForMatch as fold } from "../kernel/text-match.js";
import type { Patient } from "../patients/patient.js";
import { patientError } from "../patients/patient-errors.js";
import type { PatientRepository } from "../patients/patient-repository.js";
import type { Organisation } from "../organisations/organisation.js";
import type { InsuranceCard } from "../coverages/coverage.js";
import type { SoapNoteRepository } from "../soap/soap-note-repository.js";
import { patientDiagnoses, type RecordedDiagnosis, recordedDiagnosis } from "./recorded-diagnoses.js";
import type { InsuranceCardRepository } from "../coverages/insurance-card-repository.js";
import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { FhirPatientCriteria, FhirPatientRepository, StringFilter } from "./fhir-patient-search.js";

/** Bounds of a FHIR search page (`_count`). */
export const FHIR_SEARCH_LIMITS = Object.freeze({ defaultCount: 20, maxCount: 100, maxOffset: 100_000 });

/** What the FHIR searches read. */
export interface FhirServiceRepositories {
  patients: Pick<PatientRepository, "findById">;
  soapNotes: Pick<SoapNoteRepository, "list" | "formsOf" | "findByContextId">;
  insuranceCards: Pick<InsuranceCardRepository, "findById">;
  organisations: Pick<OrganisationRepository, "findById">;
  fhirPatients: FhirPatientRepository;
}

/** `:exact` is the whole text as stored, case and accents included (the store compared it folded). */
function exactHolds(
  filters: readonly StringFilter[] | undefined,
  texts: (p: Patient) => string[],
  p: Patient,
): boolean {
  return (filters ?? []).every((f) => f.mode !== "exact" || f.values.some((v) => texts(p).includes(v)));
}

/**
 * The FHIR R4 facade's reads of the organisation's records that the other services do not answer as FHIR asks
 * (docs/fhir.md): a patient search by FHIR's parameters. Tenancy as everywhere: the principal's organisation only.
 * Patients are organisation-wide, so a clinic restriction does not narrow them (as on v1 and v2).
 */
export class FhirSearchService {
  constructor(private readonly deps: { storage: Storage<FhirServiceRepositories> }) {}

  /** One page of patients; `offset` counts the rows the store matched, so pages chain whatever `:exact` left out. */
  async searchPatients(
    principal: Principal,
    criteria: Omit<FhirPatientCriteria, "organisationId">,
  ): Promise<{ patients: Patient[]; hasMore: boolean }> {
    const { maxCount, maxOffset } = FHIR_SEARCH_LIMITS;
    if (!Number.isInteger(criteria.limit) || criteria.limit < 0 || criteria.limit > maxCount)
      throw DomainError.invalidParameter("_count", criteria.limit, `must be an integer from 0 to ${maxCount}`);
    if (!Number.isInteger(criteria.offset) || criteria.offset < 0 || criteria.offset > maxOffset)
      throw DomainError.invalidParameter("_offset", criteria.offset, `must be an integer from 0 to ${maxOffset}`);
    const found = await this.deps.storage.repositories.fhirPatients.search({
      ...criteria,
      organisationId: principal.organisationId,
      // Exact names are compared folded by the store; the stored text decides here.
      family: criteria.family?.map((f) => (f.mode === "exact" ? { ...f, values: f.values.map(fold) } : f)),
      given: criteria.given?.map((f) => (f.mode === "exact" ? { ...f, values: f.values.map(fold) } : f)),
      name: criteria.name?.map((f) => (f.mode === "exact" ? { ...f, values: f.values.map(fold) } : f)),
    });
    const patients = found.patients.filter(
      (p) =>
        exactHolds(criteria.family, (x) => [x.lastName], p) &&
        exactHolds(criteria.given, (x) => [x.firstName], p) &&
        exactHolds(criteria.name, (x) => [x.lastName, x.firstName], p),
    );
    return { patients, hasMore: found.hasMore };
  }

  /** A patient of the principal's organisation, PATIENT_NOT_FOUND otherwise. */
  async patient(principal: Principal, id: number): Promise<Patient> {
    const found = Number.isSafeInteger(id)
      ? await this.deps.storage.repositories.patients.findById(principal.organisationId, id)
      : undefined;
    if (!found) throw patientError("PATIENT_NOT_FOUND", "Patient not found", { patient_id: id });
    return found;
  }

  /** The principal's own organisation (the FHIR Organization); another id is not there. */
  async organisation(principal: Principal): Promise<Organisation> {
    const found = await this.deps.storage.repositories.organisations.findById(principal.organisationId);
    if (!found)
      throw fhirError("FHIR_RESOURCE_NOT_FOUND", "Organization not found", {
        resource_type: "Organization",
        id: principal.organisationId,
      });
    return found;
  }

  /** A coverage (insurance card) of the organisation by its id alone; FHIR_RESOURCE_NOT_FOUND otherwise. */
  async coverage(principal: Principal, id: number): Promise<InsuranceCard> {
    const found = Number.isSafeInteger(id)
      ? await this.deps.storage.repositories.insuranceCards.findById(principal.organisationId, id)
      : undefined;
    if (!found) throw fhirError("FHIR_RESOURCE_NOT_FOUND", "Coverage not found", { resource_type: "Coverage", id });
    return found;
  }

  /** The diagnoses of a patient's completed notes within the principal's clinics (no patient: PATIENT_NOT_FOUND). */
  async diagnoses(principal: Principal, patientId: number): Promise<RecordedDiagnosis[]> {
    await this.patient(principal, patientId);
    return patientDiagnoses(this.deps.storage.repositories, principal, patientId);
  }

  /** One recorded diagnosis (a FHIR Condition) by id; FHIR_RESOURCE_NOT_FOUND otherwise. */
  async diagnosis(principal: Principal, id: string): Promise<RecordedDiagnosis> {
    const found = await recordedDiagnosis(this.deps.storage.repositories, principal, id);
    if (!found) throw fhirError("FHIR_RESOURCE_NOT_FOUND", "Condition not found", { resource_type: "Condition", id });
    return found;
  }
}
