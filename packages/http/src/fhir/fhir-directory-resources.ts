import {
  type Clinic,
  DomainError,
  FHIR_SYSTEMS,
  fhirDomainError,
  fhirLocation,
  fhirOrganization,
  fhirPractitioner,
  fhirPractitionerRole,
  type FhirResource,
  foldForMatch,
  type Organisation,
  type Practice,
  type Provider,
  splitValues,
  type StringFilter,
  stringFilter,
  token,
  US_CORE,
} from "@openpractice/core";
import { scopePair } from "../define-route.js";
import { type FhirResourceType, type FhirSearch, type SentParam, stringParam } from "./fhir-resource-type.js";
import { idsOfTokens, referencedIds, recordId } from "./fhir-values.js";

// Practitioner, PractitionerRole, Organization and Location: the organisation's providers and clinics, tens to
// hundreds of records, filtered and paged here as the v2 lists do.

const notFound = (type: string, id: string) =>
  fhirDomainError("FHIR_RESOURCE_NOT_FOUND", `${type} not found`, { resource_type: type, id });

/** Whether a string filter holds on any of the texts (folded for prefix and contains, as sent for exact). */
function holds(f: StringFilter, texts: ReadonlyArray<string | null | undefined>): boolean {
  const present = texts.filter((t): t is string => typeof t === "string" && t !== "");
  return f.values.some((v) =>
    present.some((t) =>
      f.mode === "exact" ? t === v : f.mode === "prefix" ? foldForMatch(t).startsWith(v) : foldForMatch(t).includes(v),
    ),
  );
}

/** The records passing every filter of the search, ordered by id (or `_sort=-_id`), one page of them. */
function pageOf<T extends { id: number }>(
  rows: readonly T[],
  search: FhirSearch,
  filters: ReadonlyArray<(row: T) => boolean>,
  view: (row: T) => FhirResource,
) {
  const descending = search.sort[0]?.descending === true;
  const matching = rows
    .filter((r) => filters.every((f) => f(r)))
    .sort((a, b) => (descending ? b.id - a.id : a.id - b.id));
  const page = matching.slice(search.offset, search.offset + search.count);
  return { resources: page.map(view), hasMore: matching.length > search.offset + search.count };
}

/** Filters for every occurrence of a string parameter (AND), each over the texts `of` gives. */
function stringFilters<T>(search: FhirSearch, name: string, of: (row: T) => ReadonlyArray<string | null | undefined>) {
  return (search.params.get(name) ?? []).map((s) => {
    const f = stringFilter(s.modifier ? `${name}:${s.modifier}` : name, s.modifier, s.value);
    return (row: T) => holds(f, of(row));
  });
}

/** Filters for id lists (each occurrence one list, AND). */
const idFilters = <T>(lists: number[][] | undefined, idOf: (row: T) => readonly number[]) =>
  (lists ?? []).map((ids) => (row: T) => idOf(row).some((id) => ids.includes(id)));

/** NPI tokens: `http://hl7.org/fhir/sid/us-npi|1234567893` or the number alone. */
function npiFilters<T>(sent: readonly SentParam[] | undefined, npiOf: (row: T) => string | null, idSystem: string) {
  return (sent ?? []).map((p) => {
    const wanted = splitValues(p.value).map(token);
    return (row: T & { id: number }) =>
      wanted.some(
        (t) =>
          (t.system === FHIR_SYSTEMS.npi && t.code === undefined && npiOf(row) !== null) ||
          ((t.system === undefined || t.system === FHIR_SYSTEMS.npi) &&
            t.code !== undefined &&
            t.code === npiOf(row)) ||
          (t.system === idSystem && t.code === String(row.id)),
      );
  });
}

const ID_PARAM = {
  name: "_id",
  type: "token",
  documentation: "The resource id (comma-separated: any of them)",
} as const;
const addressLine = (a: Clinic["address"]) => [a.line1, a.line2, a.city, a.state, a.postalCode, a.country];

/** Practitioner, PractitionerRole, Organization and Location. */
export function directoryResourceTypes(practice: Practice): FhirResourceType[] {
  const providerScopes = scopePair("providers").read;
  const clinicScopes = scopePair("clinics").read;
  const provider = async (principal: Parameters<Practice["providers"]["get"]>[0], type: string, id: string) => {
    try {
      return await practice.providers.get(principal, recordId(id));
    } catch (error) {
      if (error instanceof DomainError && error.code === "PROVIDER_NOT_FOUND") throw notFound(type, id);
      throw error;
    }
  };
  return [
    {
      type: "Practitioner",
      profile: US_CORE.practitioner,
      scopes: providerScopes,
      source: "the organisation's providers (v2 /v2/providers)",
      sorts: ["_id"],
      searchParams: [
        ID_PARAM,
        { name: "identifier", type: "token", documentation: `The NPI (${FHIR_SYSTEMS.npi}|{npi}, or the number)` },
        stringParam("name", "The start of the family or given name"),
        stringParam("family", "The family name"),
        stringParam("given", "The given name"),
      ],
      read: async ({ principal }, id) => fhirPractitioner(await provider(principal, "Practitioner", id)),
      async search({ principal }, search) {
        const rows = await practice.directory.listProviders(principal);
        return pageOf(
          rows,
          search,
          [
            ...idFilters(idsOfTokens(search.params.get("_id"), null), (p: Provider) => [p.id]),
            ...npiFilters<Provider>(search.params.get("identifier"), (p) => p.npi, FHIR_SYSTEMS.providerId),
            ...stringFilters<Provider>(search, "name", (p) => [p.lastName, p.firstName]),
            ...stringFilters<Provider>(search, "family", (p) => [p.lastName]),
            ...stringFilters<Provider>(search, "given", (p) => [p.firstName]),
          ],
          fhirPractitioner,
        );
      },
    },
    {
      type: "PractitionerRole",
      profile: US_CORE.practitionerRole,
      scopes: providerScopes,
      source: "the organisation's providers and the clinics each works at",
      sorts: ["_id"],
      searchParams: [
        ID_PARAM,
        { name: "practitioner", type: "reference", documentation: "Practitioner/{id}" },
        { name: "location", type: "reference", documentation: "Location/{id}: the roles at a clinic" },
      ],
      async read({ principal }, id) {
        const [p, clinics] = await Promise.all([
          provider(principal, "PractitionerRole", id),
          practice.directory.listClinics(principal),
        ]);
        return fhirPractitionerRole(p, clinics);
      },
      async search({ principal }, search) {
        const [rows, clinics] = await Promise.all([
          practice.directory.listProviders(principal),
          practice.directory.listClinics(principal),
        ]);
        return pageOf(
          rows,
          search,
          [
            ...idFilters(idsOfTokens(search.params.get("_id"), null), (p: Provider) => [p.id]),
            ...idFilters(
              referencedIds("practitioner", "Practitioner", search.params.get("practitioner")),
              (p: Provider) => [p.id],
            ),
            // Only clinics within the token's reach name a role's location.
            ...idFilters(referencedIds("location", "Location", search.params.get("location")), (p: Provider) =>
              p.clinicIds.filter((id) => clinics.some((c) => c.id === id)),
            ),
          ],
          (p) => fhirPractitionerRole(p, clinics),
        );
      },
    },
    {
      type: "Organization",
      profile: US_CORE.organization,
      scopes: Object.freeze(["organisation:read", "read", "admin"]),
      source: "the caller's organisation",
      sorts: ["_id"],
      searchParams: [
        ID_PARAM,
        stringParam("name", "The start of the name"),
        stringParam("address", "Any part of the address: the organisation records none, so it matches nothing"),
      ],
      async read({ principal }, id) {
        if (recordId(id) !== principal.organisationId) throw notFound("Organization", id);
        return fhirOrganization(await practice.fhirSearch.organisation(principal));
      },
      async search({ principal }, search) {
        const o = await practice.fhirSearch.organisation(principal);
        return pageOf(
          [o],
          search,
          [
            ...idFilters(idsOfTokens(search.params.get("_id"), null), (x: Organisation) => [x.id]),
            ...stringFilters<Organisation>(search, "name", (x) => [x.name]),
            ...stringFilters<Organisation>(search, "address", () => []),
          ],
          fhirOrganization,
        );
      },
    },
    {
      type: "Location",
      profile: US_CORE.location,
      scopes: clinicScopes,
      source: "the organisation's clinics within the token's clinic restriction",
      sorts: ["_id"],
      searchParams: [
        ID_PARAM,
        stringParam("name", "The start of the clinic's name"),
        stringParam("address", "The start of any part of the address (line, city, state, postal code, country)"),
        stringParam("address-city", "The city"),
        { name: "address-state", type: "string", documentation: "The state (two letters)", modifiers: ["exact"] },
        { name: "address-postalcode", type: "string", documentation: "The postal code", modifiers: ["exact"] },
        { name: "organization", type: "reference", documentation: "Organization/{id}" },
      ],
      async read({ principal }, id) {
        try {
          return fhirLocation(await practice.directory.getClinic(principal, recordId(id)));
        } catch (error) {
          if (error instanceof DomainError && error.code === "CLINIC_NOT_FOUND") throw notFound("Location", id);
          throw error;
        }
      },
      async search({ principal }, search) {
        const rows = await practice.directory.listClinics(principal);
        return pageOf(
          rows,
          search,
          [
            ...idFilters(idsOfTokens(search.params.get("_id"), null), (c: Clinic) => [c.id]),
            ...stringFilters<Clinic>(search, "name", (c) => [c.name]),
            ...stringFilters<Clinic>(search, "address", (c) => addressLine(c.address)),
            ...stringFilters<Clinic>(search, "address-city", (c) => [c.address.city]),
            ...stringFilters<Clinic>(search, "address-state", (c) => [c.address.state]),
            ...stringFilters<Clinic>(search, "address-postalcode", (c) => [c.address.postalCode]),
            ...idFilters(
              referencedIds("organization", "Organization", search.params.get("organization")),
              (c: Clinic) => [c.organisationId],
            ),
          ],
          fhirLocation,
        );
      },
    },
  ];
}
