import { defineCoreModule } from "../modules/core-module.js";
import { BillingCatalogService } from "./billing-catalog-service.js";

/** The billing code catalogue (CPT and HCPCS codes with their timed-unit rules). */
export const billingModule = defineCoreModule({
  key: "billing",
  createServices: ({ storage, clock }) => ({ billingCatalog: new BillingCatalogService({ storage, clock }) }),
  errorCodes: [],
  events: {},
});
