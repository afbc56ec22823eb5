import { defineCoreModule, type ModuleDependencies, owns } from "../kernel/module.js";
import type { IcdRepository } from "./icd-repository.js";
import type { IcdServiceRepositories } from "./icd-service-repositories.js";
import { IcdService } from "./icd-search-service.js";

/** The ICD-10-CM code search. */
export const icdModule = defineCoreModule({
  key: "icd",
  repositories: owns<{ icd: IcdRepository }>(),
  createServices: ({ storage }: ModuleDependencies<IcdServiceRepositories>) => ({ icd: new IcdService({ storage }) }),
  errorCodes: [],
  events: {},
});
