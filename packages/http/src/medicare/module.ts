import { defineHttpModule } from "../http-module.js";
import { v1TherapyThresholdRoutes } from "./v1-therapy-threshold-routes.js";

/** Medicare therapy thresholds of a patient's year (v1). */
export const medicareHttpModule = defineHttpModule({
  key: "medicare",
  routes: (deps) => v1TherapyThresholdRoutes(deps),
  v1Codes: {},
  v2Status: {},
});
