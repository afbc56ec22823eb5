import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { OrganisationRepository } from "./organisation-repository.js";
import type { OrganisationServiceRepositories } from "./organisation-service-repositories.js";
import { ORGANISATION_EVENTS } from "./organisation-events.js";
import { ClinicService } from "./clinic-service.js";
import { DirectoryService } from "./directory-service.js";
import { ProviderService } from "./provider-service.js";
import { DocumentationSettingsService } from "./documentation-settings.js";
import { ORGANISATION_ERROR_CODES } from "./organisation-errors.js";

/** Organisations: the directory of clinics and doctors, and each organisation's documentation settings. */
export const organisationsModule = defineCoreModule({
  key: "organisations",
  repositories: owns<{ organisations: OrganisationRepository }>(),
  createServices: ({ storage, clock }: ModuleDependencies<OrganisationServiceRepositories>) => ({
    directory: new DirectoryService({ storage, clock }),
    clinics: new ClinicService({ storage, clock }),
    providers: new ProviderService({ storage, clock }),
    documentationSettings: new DocumentationSettingsService({ storage, clock }),
  }),
  errorCodes: ORGANISATION_ERROR_CODES,
  events: ORGANISATION_EVENTS,
});
