import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import { nullableIntegerOption, type OptionValues } from "../kernel/options.js";
import type { PatientRepository } from "./patient-repository.js";
import type { PatientServiceRepositories } from "./patient-service-repositories.js";
import { PATIENT_ERROR_CODES } from "./patient-errors.js";
import { PATIENT_EVENTS } from "./patient-events.js";
import { DEFAULT_SEARCH_COUNT_LIMIT, PatientService } from "./patient-service.js";

const options = {
  /**
   * Patient searches count matches exactly up to this many, then report this number with `total_count_exact: false`
   * (default 1,000). null counts every match, which is slow for common terms in large organisations.
   */
  searchCountLimit: nullableIntegerOption({
    min: 1,
    max: 1_000_000_000,
    default: DEFAULT_SEARCH_COUNT_LIMIT,
    nullAs: 0,
  }),
};

/** The patient registry (v1 and the v2 list). */
export const patientsModule = defineCoreModule({
  key: "patients",
  repositories: owns<{ patients: PatientRepository }>(),
  options,
  createServices: ({
    storage,
    clock,
    settings,
  }: ModuleDependencies<PatientServiceRepositories, OptionValues<typeof options>>) => ({
    patients: new PatientService({ storage, clock, searchCountLimit: settings.searchCountLimit }),
  }),
  errorCodes: PATIENT_ERROR_CODES,
  events: PATIENT_EVENTS,
});
