import type { Contract } from "../route.js";

/** The contract of a path no route claims (and of the answers given before routing): v2 under /v2, FHIR under /fhir, else v1. */
export const contractOfPath = (path: string): Contract =>
  path.startsWith("/v2/") || path === "/v2" ? "v2" : path.startsWith("/fhir/") || path === "/fhir" ? "fhir" : "v1";
