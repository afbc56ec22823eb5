import type { FhirResource, Principal } from "@openpractice/core";

/** FHIR R4 search parameter types (search.html#ptypes) the facade implements. */
export type FhirSearchParamType = "token" | "string" | "date" | "reference";

/** One search parameter of a resource type, as the CapabilityStatement lists it. */
export interface FhirSearchParam {
  name: string;
  type: FhirSearchParamType;
  documentation: string;
  /** Modifiers accepted besides none (string: exact, contains). */
  modifiers?: readonly string[];
}

/** A string search parameter with the `:exact` and `:contains` modifiers. */
export const stringParam = (name: string, documentation: string): FhirSearchParam => ({
  name,
  type: "string",
  documentation,
  modifiers: ["exact", "contains"],
});

/** One parameter as sent: its modifier and its raw value (comma-separated alternatives unsplit). */
export interface SentParam {
  modifier: string | undefined;
  value: string;
}

/** What a resource type's read and search need besides the search itself. */
export interface FhirRequest {
  principal: Principal;
}

/** A search request read against a resource type: its parameters by name (each occurrence, AND), page and order. */
export interface FhirSearch {
  params: ReadonlyMap<string, readonly SentParam[]>;
  count: number;
  offset: number;
  sort: ReadonlyArray<{ name: string; descending: boolean }>;
}

/**
 * One FHIR resource type of the facade: what the CapabilityStatement says of it and how it is read and searched.
 * The route table, the CapabilityStatement and docs/fhir.md are all drawn from this list, so they cannot differ.
 */
export interface FhirResourceType {
  type: string;
  /** The US Core profile the resources claim in meta.profile; undefined: base R4. */
  profile: string | undefined;
  /** The module scopes that let a token read it (besides the SMART system scopes). */
  scopes: readonly string[];
  searchParams: readonly FhirSearchParam[];
  /** `_sort` values accepted (a leading `-` descends). */
  sorts: readonly string[];
  /** A summary of what it is drawn from, for the route's description. */
  source: string;
  read(request: FhirRequest, id: string): Promise<FhirResource>;
  /** Absent for a type read by id only (Binary): the CapabilityStatement lists no search-type then. */
  search?(request: FhirRequest, search: FhirSearch): Promise<{ resources: FhirResource[]; hasMore: boolean }>;
  /**
   * A read that answers the content itself (Binary: the document's bytes and media type) unless the request asks for
   * FHIR JSON (Accept: application/fhir+json), when `read` answers.
   */
  readRaw?(request: FhirRequest, id: string, http: Request): Promise<Response>;
}
