import type { FhirResource } from "@openpractice/core";
import type { FhirResourceType } from "./fhir-resource-type.js";

/** The Bulk Data 2.0 operations the facade runs (docs/fhir.md, "Bulk Data export"). */
const BULK_DATA = "http://hl7.org/fhir/uv/bulkdata/OperationDefinition";

/** The FHIR version the facade speaks. */
export const FHIR_VERSION = "4.0.1";

/**
 * The CapabilityStatement (GET /fhir/R4/metadata) drawn from the facade's resource table: exactly the types,
 * interactions and search parameters that answer, with the US Core profile each type claims.
 */
export function capabilityStatement(
  types: readonly FhirResourceType[],
  base: string,
  software: { version: string; started: Date },
  /** The token endpoint's URL when this server issues tokens (SMART Backend Services), else undefined. */
  tokenEndpoint: string | undefined,
): FhirResource {
  return {
    resourceType: "CapabilityStatement",
    status: "active",
    date: software.started.toISOString(),
    publisher: "OpenPractice",
    kind: "instance",
    software: { name: "OpenPractice", version: software.version },
    implementation: {
      description: "OpenPractice FHIR R4 facade over the practice's records (read, search and Bulk Data export)",
      url: base,
    },
    fhirVersion: FHIR_VERSION,
    format: ["json", "application/fhir+json"],
    rest: [
      {
        mode: "server",
        documentation:
          "Read and search, and Bulk Data export ($export, Patient/$export). Tenancy and clinic restrictions as on the v1 and v2 APIs: a resource of another organisation is not found. Unknown search parameters are refused (400) unless the request carries Prefer: handling=lenient.",
        security: {
          cors: false,
          ...(tokenEndpoint
            ? {
                extension: [
                  {
                    url: "http://fhir-registry.smarthealthit.org/StructureDefinition/oauth-uris",
                    extension: [{ url: "token", valueUri: tokenEndpoint }],
                  },
                ],
                service: [
                  {
                    coding: [
                      {
                        system: "http://terminology.hl7.org/CodeSystem/restful-security-service",
                        code: "SMART-on-FHIR",
                      },
                    ],
                  },
                ],
              }
            : {}),
          description:
            "OAuth 2.0 bearer tokens, the same tokens as v1 and v2 (docs/authentication.md): SMART Backend Services (private_key_jwt at the token endpoint, /.well-known/smart-configuration) or a client secret.",
        },
        resource: types.map((t) => ({
          type: t.type,
          ...(t.profile ? { supportedProfile: [t.profile] } : {}),
          ...(t.type === "Patient"
            ? { operation: [{ name: "export", definition: `${BULK_DATA}/patient-export` }] }
            : {}),
          interaction: t.search ? [{ code: "read" }, { code: "search-type" }] : [{ code: "read" }],
          versioning: "no-version",
          readHistory: false,
          updateCreate: false,
          searchParam: t.searchParams.map((p) => ({ name: p.name, type: p.type, documentation: p.documentation })),
        })),
        operation: [{ name: "export", definition: `${BULK_DATA}/export` }],
      },
    ],
  };
}
