import { defineHttpModule } from "../http-module.js";
import { v2ClinicRoutes } from "./v2-clinic-routes.js";

/** The v2 clinic directory (spec 4.7); v1 reads the same clinics through the appointments routes. */
export const clinicsHttpModule = defineHttpModule({
  key: "clinics",
  routes: v2ClinicRoutes,
  v1Codes: { DUPLICATE_CLINIC: { code: 4087, status: 409 } },
  v2Status: { DUPLICATE_CLINIC: 409 },
});
