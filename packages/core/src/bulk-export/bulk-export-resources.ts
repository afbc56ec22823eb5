import type { AppointmentStatus } from "../appointments/appointment.js";
import type { CatalogRepository } from "../catalog/catalog-repository.js";
import { fhirAppointment } from "../fhir/resources/appointment.js";
import { ENCOUNTER_STATUS, fhirCondition, fhirEncounter } from "../fhir/resources/clinical.js";
import { diagnosesOfNote } from "../fhir/recorded-diagnoses.js";
import type { SoapNoteRepository } from "../soap/soap-note-repository.js";
import { fhirCoverage } from "../fhir/resources/coverage.js";
import { fhirLocation, fhirOrganization, fhirPractitioner, fhirPractitionerRole } from "../fhir/resources/directory.js";
import { fhirDocumentReference } from "../fhir/resources/document.js";
import type { FhirResource } from "../fhir/resources/fhir-json.js";
import { fhirPatient } from "../fhir/resources/patient.js";
import type { OrganisationRepository } from "../organisations/organisation-repository.js";
import type { BulkExport, BulkExportType } from "./bulk-export.js";
import type { BulkExportSource, ExportPage } from "./bulk-export-repository.js";

/** What drawing an export's resources reads. */
export interface ExportReadRepositories {
  bulkExportSource: BulkExportSource;
  organisations: Pick<OrganisationRepository, "findById" | "listClinics" | "listProviders">;
  catalog: Pick<CatalogRepository, "listAppointmentCategories">;
  soapNotes: Pick<SoapNoteRepository, "formsOf">;
}

/** A resource with the id the export's cursor moves past. */
export interface ExportedResource {
  id: number;
  resource: FhirResource;
}

const ENCOUNTER_STATUSES = Object.keys(ENCOUNTER_STATUS) as AppointmentStatus[];

/**
 * The resources of one type, in id order, after `afterId`, as the FHIR reads draw them (core's fhir/resources):
 * read a keyset page at a time, so memory holds one page whatever the organisation's size. The directory types
 * (an organisation's clinics and providers: tens) are read whole.
 */
export async function* exportedResources(
  r: ExportReadRepositories,
  e: BulkExport,
  type: BulkExportType,
  afterId: number,
  pageSize: number,
): AsyncGenerator<ExportedResource> {
  const organisationId = e.organisationId;
  const changed = (at: Date) => e.since === null || at > e.since;
  const reachable = (clinicId: number) => e.inClinics === null || e.inClinics.includes(clinicId);
  const pages = async function* <T extends { id: number }>(read: (page: ExportPage) => Promise<T[]>) {
    let after = afterId;
    for (;;) {
      const rows = await read({ organisationId, afterId: after, limit: pageSize, since: e.since });
      yield* rows;
      if (rows.length < pageSize) return;
      after = (rows[rows.length - 1] as T).id;
    }
  };
  const providers = async () =>
    (await r.organisations.listProviders(organisationId)).filter((p) => p.id > afterId).sort((a, b) => a.id - b.id);
  const source = r.bulkExportSource;
  switch (type) {
    case "Patient":
      for await (const p of pages((page) => source.patients(page))) yield { id: p.id, resource: fhirPatient(p) };
      return;
    case "Coverage":
      for await (const c of pages((page) => source.insuranceCards(page))) yield { id: c.id, resource: fhirCoverage(c) };
      return;
    case "Appointment":
    case "Encounter": {
      const byUser = new Map((await r.organisations.listProviders(organisationId)).map((p) => [p.userId, p]));
      const categories = new Map(
        (await r.catalog.listAppointmentCategories(organisationId)).map((c) => [c.id, c] as const),
      );
      const statuses = type === "Encounter" ? ENCOUNTER_STATUSES : null;
      for await (const a of pages((page) => source.appointments({ ...page, inClinics: e.inClinics, statuses })))
        yield {
          id: a.id,
          resource:
            type === "Encounter"
              ? fhirEncounter(a, byUser.get(a.doctorId), categories)
              : fhirAppointment(a, byUser.get(a.doctorId)),
        };
      return;
    }
    case "Condition":
      // A note's Conditions share its id: a slice keeps them in one file (bulk-export-slice.ts).
      for await (const note of pages((page) => source.completedNotes({ ...page, inClinics: e.inClinics })))
        for (const d of await diagnosesOfNote(r, note)) yield { id: note.id, resource: fhirCondition(d) };
      return;
    case "DocumentReference":
      for await (const d of pages((page) => source.patientDocuments({ ...page, inClinics: e.inClinics })))
        yield { id: d.id, resource: fhirDocumentReference(d) };
      return;
    case "Organization": {
      const o = await r.organisations.findById(organisationId);
      if (o && o.id > afterId && changed(o.updatedAt)) yield { id: o.id, resource: fhirOrganization(o) };
      return;
    }
    case "Location":
      for (const c of (await r.organisations.listClinics(organisationId)).sort((a, b) => a.id - b.id))
        if (c.id > afterId && reachable(c.id) && changed(c.updatedAt)) yield { id: c.id, resource: fhirLocation(c) };
      return;
    case "Practitioner":
      for (const p of await providers()) if (changed(p.updatedAt)) yield { id: p.id, resource: fhirPractitioner(p) };
      return;
    case "PractitionerRole": {
      const clinics = (await r.organisations.listClinics(organisationId)).filter((c) => reachable(c.id));
      for (const p of await providers())
        if (changed(p.updatedAt)) yield { id: p.id, resource: fhirPractitionerRole(p, clinics) };
      return;
    }
  }
}
