import type { Clinic, Organisation, Provider } from "../../organisations/organisation.js";
import { compact, type FhirResource } from "./fhir-json.js";
import { FHIR_SYSTEMS, US_CORE } from "./fhir-systems.js";

/** A provider as a US Core Practitioner. */
export function fhirPractitioner(p: Provider): FhirResource {
  return compact({
    resourceType: "Practitioner",
    id: String(p.id),
    meta: { lastUpdated: p.updatedAt.toISOString(), profile: [US_CORE.practitioner] },
    identifier: [
      p.npi ? { system: FHIR_SYSTEMS.npi, value: p.npi } : undefined,
      { system: FHIR_SYSTEMS.providerId, value: String(p.id) },
    ],
    active: p.active,
    name: [{ family: p.lastName, given: [p.firstName], suffix: p.credentials }],
    qualification: p.licenceNumber
      ? [
          {
            identifier: [{ value: p.licenceNumber }],
            code: { text: `Licence${p.licenceState ? ` (${p.licenceState})` : ""}` },
          },
        ]
      : undefined,
  });
}

/** A provider's role at the organisation and its clinics, as a US Core PractitionerRole (one per provider). */
export function fhirPractitionerRole(p: Provider, clinics: readonly Clinic[]): FhirResource {
  const at = clinics.filter((c) => p.clinicIds.includes(c.id));
  const phone = at.find((c) => c.phone)?.phone;
  return compact({
    resourceType: "PractitionerRole",
    id: String(p.id),
    meta: { lastUpdated: p.updatedAt.toISOString(), profile: [US_CORE.practitionerRole] },
    active: p.active,
    practitioner: { reference: `Practitioner/${p.id}`, display: `${p.firstName} ${p.lastName}` },
    organization: { reference: `Organization/${p.organisationId}` },
    code: p.credentials.length ? [{ text: p.credentials.join(", ") }] : undefined,
    specialty: p.specialities.map((s) => ({ text: s })),
    location: at.map((c) => ({ reference: `Location/${c.id}`, display: c.name })),
    telecom: phone ? [{ system: "phone", value: phone, use: "work" }] : undefined,
  });
}

/** The organisation as a US Core Organization. */
export function fhirOrganization(o: Organisation): FhirResource {
  return compact({
    resourceType: "Organization",
    id: String(o.id),
    meta: { lastUpdated: o.updatedAt.toISOString(), profile: [US_CORE.organization] },
    identifier: [{ system: FHIR_SYSTEMS.organisationId, value: String(o.id) }],
    active: o.isActive && o.deactivatedAt === null,
    type: [
      {
        coding: [
          {
            system: "http://terminology.hl7.org/CodeSystem/organization-type",
            code: "prov",
            display: "Healthcare Provider",
          },
        ],
      },
    ],
    name: o.name,
  });
}

/** A clinic as a US Core Location. */
export function fhirLocation(c: Clinic): FhirResource {
  const a = c.address;
  return compact({
    resourceType: "Location",
    id: String(c.id),
    meta: { lastUpdated: c.updatedAt.toISOString(), profile: [US_CORE.location] },
    identifier: [
      c.npi ? { system: FHIR_SYSTEMS.npi, value: c.npi } : undefined,
      c.taxId ? { system: FHIR_SYSTEMS.ein, value: c.taxId } : undefined,
      { system: FHIR_SYSTEMS.clinicId, value: String(c.id) },
    ],
    status: c.active ? "active" : "inactive",
    name: c.name,
    mode: "instance",
    telecom: c.phone ? [{ system: "phone", value: c.phone, use: "work" }] : undefined,
    address: {
      use: "work",
      line: [a.line1, a.line2],
      city: a.city,
      state: a.state,
      postalCode: a.postalCode,
      country: a.country,
    },
    managingOrganization: { reference: `Organization/${c.organisationId}` },
    extension: [{ url: "http://hl7.org/fhir/StructureDefinition/timezone", valueCode: c.timeZone }],
  });
}
