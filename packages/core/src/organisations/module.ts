import { defineCoreModule } from "../modules/core-module.js";
import { ClinicService } from "./clinic-service.js";
import { DirectoryService } from "./directory-service.js";
import { ProviderService } from "./provider-service.js";
import { DocumentationSettingsService } from "./documentation-settings.js";
import { ORGANISATION_ERROR_CODES } from "./organisation-errors.js";

/** Organisations: the directory of clinics and doctors, and each organisation's documentation settings. */
export const organisationsModule = defineCoreModule({
  key: "organisations",
  createServices: ({ storage, clock }) => ({
    directory: new DirectoryService({ storage, clock }),
    clinics: new ClinicService({ storage, clock }),
    providers: new ProviderService({ storage, clock }),
    documentationSettings: new DocumentationSettingsService({ storage, clock }),
  }),
  errorCodes: ORGANISATION_ERROR_CODES,
  events: {
    "clinic.created": { fields: ["organisation_id", "clinic_id"], description: "A clinic was added." },
    "clinic.updated": {
      fields: ["organisation_id", "clinic_id"],
      description: "A clinic's details or settings changed (or it was deactivated or reactivated).",
    },
    "provider.created": { fields: ["organisation_id", "provider_id"], description: "A provider was added." },
    "provider.updated": {
      fields: ["organisation_id", "provider_id"],
      description: "A provider's record changed (or they were deactivated or reactivated).",
    },
  } as const,
});
