import { defineHttpModule } from "../http-module.js";
import { v2CoverageRoutes } from "./v2-coverage-routes.js";

/** Patients' coverages (spec 4.7), v2. The v1 codes exist because every code has one. */
export const coveragesHttpModule = defineHttpModule({
  key: "coverages",
  routes: v2CoverageRoutes,
  v1Codes: {
    COVERAGE_NOT_FOUND: { code: 4068, status: 404 },
    COVERAGE_IN_USE: { code: 4076, status: 409 },
  },
  v2Status: { COVERAGE_NOT_FOUND: 404, COVERAGE_IN_USE: 409 },
});
