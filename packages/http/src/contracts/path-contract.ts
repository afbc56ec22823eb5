import type { Contract } from "../route.js";

/** The contract of a path no route claims (and of the answers given before routing): v2 under /v2, else v1. */
export const contractOfPath = (path: string): Contract => (path.startsWith("/v2/") || path === "/v2" ? "v2" : "v1");
