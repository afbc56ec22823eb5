import { defineCoreModule } from "../modules/core-module.js";
import { IcdService } from "./icd-search-service.js";

/** The ICD-10-CM code search. */
export const icdModule = defineCoreModule({
  key: "icd",
  createServices: ({ storage }) => ({ icd: new IcdService({ storage }) }),
  errorCodes: [],
  events: {},
});
