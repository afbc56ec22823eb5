/**
 * US Core 6.1 must-support elements per profile that OpenPractice's records can hold (docs/fhir.md lists the ones
 * they cannot: race, ethnicity, birth sex, communication language...). A test fills the record and checks every
 * path here is present in what the facade sends: a must-support element the data holds is never left out.
 * Sources: the profiles' "Must Support" lists, hl7.org/fhir/us/core/STU6.1/StructureDefinition-us-core-*.html.
 */
export const US_CORE_MUST_SUPPORT = {
  Patient: [
    "identifier",
    "identifier.system",
    "identifier.value",
    "name",
    "name.family",
    "name.given",
    "telecom",
    "telecom.system",
    "telecom.value",
    "telecom.use",
    "gender",
    "birthDate",
    "address",
    "address.line",
    "address.city",
    "address.state",
    "address.postalCode",
  ],
  Practitioner: ["identifier", "identifier.system", "identifier.value", "name", "name.family"],
  PractitionerRole: ["practitioner", "organization", "code", "location", "telecom", "telecom.system", "telecom.value"],
  Organization: ["identifier", "identifier.system", "identifier.value", "active", "name"],
  Location: [
    "status",
    "name",
    "telecom",
    "address",
    "address.line",
    "address.city",
    "address.state",
    "address.postalCode",
    "managingOrganization",
  ],
  Coverage: [
    "identifier",
    "identifier.type",
    "identifier.value",
    "status",
    "subscriberId",
    "beneficiary",
    "relationship",
    "period",
    "payor",
    "class",
    "class.type",
    "class.value",
  ],
  Encounter: [
    "identifier",
    "identifier.system",
    "identifier.value",
    "status",
    "class",
    "type",
    "subject",
    "participant",
    "participant.type",
    "participant.period",
    "participant.individual",
    "period",
    "location",
    "location.location",
    "serviceProvider",
  ],
  Condition: ["category", "code", "subject", "encounter", "recordedDate"],
  DocumentReference: [
    "identifier",
    "status",
    "type",
    "category",
    "subject",
    "date",
    "content",
    "content.attachment",
    "content.attachment.contentType",
    "content.attachment.url",
    "content.format",
    "context",
    "context.period",
  ],
} as const;

/** The paths of `paths` with no value anywhere in `resource` (arrays are walked: any element will do). */
export function mustSupportGaps(resource: unknown, paths: readonly string[]): string[] {
  const valuesAt = (node: unknown, parts: string[]): unknown[] => {
    if (Array.isArray(node)) return node.flatMap((n) => valuesAt(n, parts));
    if (parts.length === 0) return node === undefined || node === null || node === "" ? [] : [node];
    if (!node || typeof node !== "object") return [];
    return valuesAt((node as Record<string, unknown>)[parts[0]!], parts.slice(1));
  };
  return paths.filter((p) => valuesAt(resource, p.split(".")).length === 0);
}
