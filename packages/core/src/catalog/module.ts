import { defineCoreModule } from "../modules/core-module.js";
import { CatalogService } from "./catalog-service.js";

/** The organisation's appointment categories and cancellation reasons. */
export const catalogModule = defineCoreModule({
  key: "catalog",
  createServices: ({ storage }) => ({ catalog: new CatalogService({ storage }) }),
  errorCodes: [],
  events: {},
});
