import { defineHttpModule } from "../http-module.js";
import { v1IcdRoutes } from "./v1-icd-routes.js";

/** The ICD-10-CM code search (v1). */
export const icdHttpModule = defineHttpModule({
  key: "icd",
  routes: (deps) => [...v1IcdRoutes(deps)],
  v1Codes: {},
  v2Status: {},
});
