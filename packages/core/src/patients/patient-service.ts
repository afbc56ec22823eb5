import { patientEvent } from "./patient-events.js";
import { organisationError } from "../organisations/organisation-errors.js";
import { patientError } from "./patient-errors.js";
import { ensureOrganisation } from "../organisations/ensure-organisation.js";
import { isDeepStrictEqual } from "node:util";
import { findReachableClinic } from "../organisations/reachable-clinic.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { type Storage, readsFor } from "../kernel/storage.js";
import type { PatientServiceRepositories } from "./patient-service-repositories.js";
import type { Patient, PatientChanges, PatientDraft } from "./patient.js";
import { toPatientListCriteria, type PatientListQuery } from "./patient-list-query.js";
import { toPatientRecord } from "./patient-normalisation.js";
import {
  applyPatientChanges,
  assertValidPatientChanges,
  assertValidPatientDraft,
  patientFromDraft,
} from "./patient-rules.js";

export interface PatientPage {
  patients: Patient[];
  /** The number of matches; a lower bound when `totalExact` is false. */
  total: number;
  /** False when a search matched more than the search count limit: `total` is then that limit. */
  totalExact: boolean;
  /** Whether a later page has matches (known exactly, also when the total is bounded). */
  hasNext: boolean;
  page: number;
  perPage: number;
}

/** Searches count their matches exactly up to this many (PracticeOptions.searchCountLimit). */
export const DEFAULT_SEARCH_COUNT_LIMIT = 1000;

export interface RegistrationResult {
  /** false when the same name and date of birth were already registered; `patient` is then the existing record. */
  created: boolean;
  patient: Patient;
}

const notFound = (id: unknown) => patientError("PATIENT_NOT_FOUND", "Patient not found", { patient_id: id });

/** Patient registration, reads, updates and the list. Every call is scoped to the principal's organisation. */
export class PatientService {
  constructor(
    private readonly deps: {
      storage: Storage<PatientServiceRepositories>;
      clock: Clock;
      searchCountLimit?: number | null;
    },
  ) {}

  private today(): string {
    return this.deps.clock.now().toISOString().slice(0, 10);
  }

  /** The patient's clinic must be one of the organisation's, and within the principal's clinic restriction. */
  private async assertClinicInOrganisation(
    tx: PatientServiceRepositories,
    principal: Principal,
    clinicId: number | null | undefined,
  ): Promise<void> {
    if (clinicId == null) return;
    const clinic = await findReachableClinic(tx, principal, clinicId);
    if (!clinic)
      throw organisationError("CLINIC_NOT_FOUND", "Clinic not found in this organisation", {
        issues: [{ field: "clinicId", reason: "does not exist in this organisation", value: clinicId }],
      });
  }

  /**
   * Registers a patient. A second registration of the same name and date of
   * birth returns the existing patient with created=false and writes nothing
   * (the real v1 service answers it with code 2301). patient.created is written
   * to the outbox in the same transaction as the row.
   */
  async register(principal: Principal, draft: PatientDraft): Promise<RegistrationResult> {
    assertValidPatientDraft(draft, this.today());
    const now = this.deps.clock.now();
    const orgId = principal.organisationId;
    return this.deps.storage.transaction(async (tx) => {
      await ensureOrganisation(tx, orgId, now);
      await this.assertClinicInOrganisation(tx, principal, draft.clinicId);
      const result = await tx.patients.insertIfAbsent(toPatientRecord(patientFromDraft(draft, orgId, now)));
      if (result.created) {
        await tx.outbox.append(
          patientEvent("patient.created", { organisation_id: orgId, patient_id: result.patient.id }, now),
        );
      }
      return result;
    });
  }

  async get(principal: Principal, id: number): Promise<Patient> {
    if (!Number.isSafeInteger(id) || id <= 0) throw notFound(id);
    const patient = await this.deps.storage.repositories.patients.findById(principal.organisationId, id);
    if (!patient) throw notFound(id);
    return patient;
  }

  /**
   * Partial update: omitted fields keep their values. A change that would make
   * the patient a duplicate of another is refused (DUPLICATE_PATIENT) and writes
   * nothing. An update that changes nothing writes nothing and emits no event.
   */
  async update(principal: Principal, id: number, changes: PatientChanges): Promise<Patient> {
    assertValidPatientChanges(changes, this.today());
    const now = this.deps.clock.now();
    const orgId = principal.organisationId;
    return this.deps.storage.transaction(async (tx) => {
      const current = Number.isSafeInteger(id) && id > 0 ? await tx.patients.findById(orgId, id) : undefined;
      if (!current) throw notFound(id);
      if (changes.clinicId !== undefined) await this.assertClinicInOrganisation(tx, principal, changes.clinicId);
      const next = applyPatientChanges(current, changes, now);
      if (samePatientContent(current, next)) return current;
      const outcome = await tx.patients.replace(id, toPatientRecord(next));
      if (outcome.outcome === "missing") throw notFound(id);
      if (outcome.outcome === "conflict") {
        throw patientError("DUPLICATE_PATIENT", "Another patient with the same name and date of birth exists", {
          existing_patient_id: outcome.existingId,
        });
      }
      await tx.outbox.append(patientEvent("patient.updated", { organisation_id: orgId, patient_id: id }, now));
      return outcome.patient;
    });
  }

  /**
   * One page of the organisation's patients. A search (`search` given) counts
   * its matches exactly up to the search count limit and reports the limit with
   * totalExact=false above it; lists without a search always count exactly.
   * One extra row is read so that hasNext is exact either way.
   */
  async list(principal: Principal, query: PatientListQuery): Promise<PatientPage> {
    const criteria = toPatientListCriteria(principal.organisationId, query);
    const limit = criteria.searchTerms.length > 0 ? (this.deps.searchCountLimit ?? undefined) : undefined;
    const perPage = criteria.limit;
    // A list may see a replica's state a few seconds old; the organisation's own recent writes read the primary.
    const found = await readsFor(this.deps.storage, principal.organisationId).patients.list({
      ...criteria,
      limit: perPage + 1,
      countLimit: limit,
    });
    // An adapter may ignore countLimit and count everything; the bound is applied here either way.
    const totalExact = limit === undefined || found.total <= limit;
    return {
      patients: found.patients.slice(0, perPage),
      total: totalExact ? found.total : (limit as number),
      totalExact,
      hasNext: found.patients.length > perPage,
      page: criteria.offset / perPage + 1,
      perPage,
    };
  }
}

/** Same stored content, ignoring the timestamps (key order does not matter). */
function samePatientContent(a: Patient, b: Patient): boolean {
  const strip = ({ updatedAt: _u, createdAt: _c, ...rest }: Patient) => rest;
  return isDeepStrictEqual(strip(a), strip(b));
}
