import { FHIR_SEARCH_LIMITS } from "@openpractice/core";
import type { FhirResource } from "@openpractice/core";
import type { FhirSearch } from "./fhir-resource-type.js";
import { searchQuery } from "./fhir-search-request.js";

/**
 * A `searchset` Bundle (FHIR R4 bundle.html, search.html#paging): the page's matches with their full URLs, a
 * `self` link and, while more follow, a `next` link carrying the same parameters and the next offset. No `total`:
 * counting every match costs what the page does not (it is optional in R4).
 */
export function searchsetBundle(
  base: string,
  type: string,
  search: FhirSearch,
  page: { resources: readonly FhirResource[]; hasMore: boolean },
  now: Date,
): FhirResource {
  const link = (offset: number) => `${base}/${type}?${searchQuery(search, { offset })}`;
  return {
    resourceType: "Bundle",
    type: "searchset",
    meta: { lastUpdated: now.toISOString() },
    link: [
      { relation: "self", url: link(search.offset) },
      // `_count=0` pages nothing: no next page to follow (it would be this one again); nor one past the offset limit.
      ...(page.hasMore && search.count > 0 && search.offset + search.count <= FHIR_SEARCH_LIMITS.maxOffset
        ? [{ relation: "next", url: link(search.offset + search.count) }]
        : []),
      ...(search.offset > 0 && search.count > 0
        ? [{ relation: "previous", url: link(Math.max(0, search.offset - search.count)) }]
        : []),
    ],
    entry: page.resources.map((resource) => ({
      fullUrl: `${base}/${resource.resourceType}/${resource.id}`,
      resource,
      search: { mode: "match" },
    })),
  };
}
