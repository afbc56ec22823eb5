import {
  calendarDateRange,
  DomainError,
  fhirDocumentReference,
  type Practice,
  type Principal,
  splitValues,
  token,
  US_CORE,
} from "@openpractice/core";
import { contentResponse } from "../documents/content-response.js";
import { scopePair } from "../define-route.js";
import type { FhirResourceType } from "./fhir-resource-type.js";
import { commonIds, idsOfTokens, referencedIds, singleValue, recordId, unlessMissing } from "./fhir-values.js";

/** A Binary answered inline as FHIR JSON (base64) up to this size; larger ones only as their own bytes. */
const INLINE_BINARY_MAX_BYTES = 8 * 1024 * 1024;

/** The document the caller may read, by id; not found as the documents API says it. */
const documentOf = (practice: Practice, principal: Principal, id: string) =>
  practice.patientDocuments.getById(principal, recordId(id));

/** DocumentReference and Binary: patient documents and visit-summary PDFs, and their bytes. */
export function documentResourceTypes(practice: Practice): FhirResourceType[] {
  const scopes = scopePair("documents").read;
  return [
    {
      type: "DocumentReference",
      profile: US_CORE.documentReference,
      scopes,
      source:
        "patient documents and visit-summary PDFs (v1 /apis/v1/patient/{id}/documents), within the token's clinics",
      sorts: [],
      searchParams: [
        { name: "patient", type: "reference", documentation: "Patient/{id} (a search names the patient)" },
        {
          name: "category",
          type: "token",
          documentation: "clinical-note (every document), or an OpenPractice category (referral, visit_summary…)",
        },
        {
          name: "date",
          type: "date",
          documentation: "The document's date (or its upload day), with ge, gt, le, lt or eq",
        },
        { name: "_id", type: "token", documentation: "The document id (comma-separated: any of them)" },
      ],
      read: async ({ principal }, id) => fhirDocumentReference(await documentOf(practice, principal, id)),
      async search({ principal }, search) {
        const patients = commonIds(referencedIds("patient", "Patient", search.params.get("patient")));
        if (!patients)
          throw DomainError.invalidParameter("patient", null, "a DocumentReference search names the patient");
        const none = { resources: [], hasMore: false };
        if (patients.length !== 1) return none;
        const categories = (search.params.get("category") ?? []).map((s) =>
          splitValues(s.value).map((raw) => token(raw).code ?? ""),
        );
        // clinical-note covers every document; another value is an OpenPractice category.
        const named = categories.map((list) => (list.includes("clinical-note") ? undefined : list));
        const only = named.filter((l): l is string[] => l !== undefined);
        if (only.length > 1 || (only[0] && only[0].length !== 1))
          throw DomainError.invalidParameter(
            "category",
            search.params.get("category")?.[0]?.value,
            "names one category",
          );
        const ranges = search.params.get("date")?.map((p) => calendarDateRange("date", singleValue("date", p))) ?? [];
        const from = ranges.reduce<string | undefined>(
          (acc, r) => (r.from && (!acc || r.from > acc) ? r.from : acc),
          undefined,
        );
        const before = ranges.reduce<string | undefined>(
          (acc, r) => (r.before && (!acc || r.before < acc) ? r.before : acc),
          undefined,
        );
        // The list's `to` is inclusive: the day before the exclusive end.
        const to = before ? new Date(Date.parse(before) - 86_400_000).toISOString().slice(0, 10) : undefined;
        if (from && to && from > to) return none;
        const ids = commonIds(idsOfTokens(search.params.get("_id"), null));
        if (search.count > 0 && search.offset % search.count !== 0)
          throw DomainError.invalidParameter(
            "_offset",
            search.offset,
            "must be a multiple of _count for DocumentReference",
          );
        if (search.count === 0) return none;
        const page = await unlessMissing(
          practice.patientDocuments.list(principal, patients[0]!, {
            category: only[0]?.[0],
            from,
            to,
            page: search.offset / search.count + 1,
            size: search.count,
          }),
          "PATIENT_NOT_FOUND",
        );
        if (!page) return none;
        const documents = ids ? page.documents.filter((d) => ids.includes(d.id)) : page.documents;
        return {
          resources: documents.map(fhirDocumentReference),
          hasMore: search.offset + page.documents.length < page.total,
        };
      },
    },
    {
      type: "Binary",
      profile: undefined,
      scopes,
      source: "the bytes of a DocumentReference (its content.attachment.url)",
      sorts: [],
      searchParams: [],
      async read({ principal }, id) {
        const d = await documentOf(practice, principal, id);
        const { read } = await practice.patientDocuments.content(principal, d.patientId, d.id);
        if (d.sizeBytes > INLINE_BINARY_MAX_BYTES)
          throw DomainError.invalidParameter(
            "_format",
            "application/fhir+json",
            `the document exceeds ${INLINE_BINARY_MAX_BYTES} bytes: ask for its own media type`,
          );
        const chunks: Uint8Array[] = [];
        for await (const chunk of await read()) chunks.push(chunk);
        return {
          resourceType: "Binary",
          id: String(d.id),
          contentType: d.mediaType,
          data: Buffer.concat(chunks).toString("base64"),
        };
      },
      async readRaw({ principal }, id) {
        const d = await documentOf(practice, principal, id);
        const { document, read } = await practice.patientDocuments.content(principal, d.patientId, d.id);
        return contentResponse(document, await read(), undefined);
      },
    },
  ];
}
