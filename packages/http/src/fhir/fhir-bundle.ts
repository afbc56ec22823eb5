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
      ...(page.hasMore ? [{ relation: "next", url: link(search.offset + search.count) }] : []),
      ...(search.offset > 0 ? [{ relation: "previous", url: link(Math.max(0, search.offset - search.count)) }] : []),
    ],
    entry: page.resources.map((resource) => ({
      fullUrl: `${base}/${resource.resourceType}/${resource.id}`,
      resource,
      search: { mode: "match" },
    })),
  };
}
