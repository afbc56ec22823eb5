import type { Patient, Sex } from "../patients/patient.js";

/**
 * How a string search parameter matches (FHIR R4 search.html#string): by default the start of the value, case and
 * accents aside; `:exact` the whole value as stored; `:contains` anywhere in it, case and accents aside.
 */
export type StringMatchMode = "prefix" | "exact" | "contains";

/** One string parameter as sent: any of its comma-separated values matches (OR). */
export interface StringFilter {
  mode: StringMatchMode;
  /** Folded (foldForMatch) for prefix and contains; as sent for exact. Never empty. */
  values: readonly string[];
}

/** A half-open range: `from` inclusive, `before` exclusive; either may be absent. */
export interface Range<T> {
  from?: T | undefined;
  before?: T | undefined;
}

/**
 * A search of an organisation's patients by FHIR Patient's parameters, each a list of filters that must all hold
 * (a parameter repeated is AND; its comma-separated values are OR). Rows in id order, `limit` from `offset`.
 */
export interface FhirPatientCriteria {
  organisationId: number;
  /** `_id` (and `identifier` with the organisation's system): any of these ids. */
  ids?: ReadonlyArray<readonly number[]> | undefined;
  family?: readonly StringFilter[] | undefined;
  given?: readonly StringFilter[] | undefined;
  /** `name`: family or given. */
  name?: readonly StringFilter[] | undefined;
  /** YYYY-MM-DD bounds. */
  birthDate?: ReadonlyArray<Range<string>> | undefined;
  sex?: ReadonlyArray<readonly Sex[]> | undefined;
  updated?: ReadonlyArray<Range<Date>> | undefined;
  /** Ordering: by id (the default) or last update, each ascending or descending; id breaks ties. */
  sort: { field: "id" | "updated" | "family" | "birthdate"; order: "asc" | "desc" };
  limit: number;
  offset: number;
}

/** The patient search of the FHIR facade: over the same patients table, nothing copied. */
export interface FhirPatientRepository {
  /** The page's patients (at most `limit`) and whether more follow. */
  search(criteria: FhirPatientCriteria): Promise<{ patients: Patient[]; hasMore: boolean }>;
}
