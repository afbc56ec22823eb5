import { defineCoreModule } from "../modules/core-module.js";
import { DirectoryService } from "./directory-service.js";
import { DocumentationSettingsService } from "./documentation-settings.js";
import { ORGANISATION_ERROR_CODES } from "./organisation-errors.js";

/** Organisations: the directory of clinics and doctors, and each organisation's documentation settings. */
export const organisationsModule = defineCoreModule({
  key: "organisations",
  createServices: ({ storage, clock }) => ({
    directory: new DirectoryService({ storage }),
    documentationSettings: new DocumentationSettingsService({ storage, clock }),
  }),
  errorCodes: ORGANISATION_ERROR_CODES,
  events: {},
});
