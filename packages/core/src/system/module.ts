import { defineCoreModule } from "../modules/core-module.js";
import { SYSTEM_ERROR_CODES } from "../kernel/system-errors.js";

/** The codes every route may answer (contract, authentication, routing, outages); no services of its own. */
export const systemModule = defineCoreModule({
  key: "system",
  createServices: () => ({}),
  errorCodes: SYSTEM_ERROR_CODES,
  events: {},
});
