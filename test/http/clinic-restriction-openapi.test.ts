import { describe, expect, it } from "vitest";
import { currentOpenApiDocument } from "../../scripts/openapi-document.mjs";

// The routes that refuse a token restricted to clinics with 403 even within its scopes (test/http/clinic-restrictions
// exercises each one): integrators read that in the OpenAPI document's 403, beside the scopes.
const REFUSING = [
  ["post", "/v2/clinics"],
  ["get", "/v2/audit-events"],
  ["post", "/v2/providers"],
  ["patch", "/v2/providers/{provider_id}"],
  ["post", "/v2/staff"],
  ["patch", "/v2/staff/{staff_id}"],
  ["delete", "/v2/staff/{staff_id}"],
  ["post", "/v2/api-clients"],
  ["patch", "/v2/api-clients/{api_client_id}"],
  ["delete", "/v2/api-clients/{api_client_id}"],
  ["post", "/v2/api-clients/{api_client_id}/rotate-secret"],
  ["post", "/apis/v1/doctor"],
  ["post", "/apis/v1/doctor/{doctor_id}"],
  ["put", "/v2/organisation/clearinghouse"],
  ["post", "/apis/v1/fee-schedule"],
  ["get", "/apis/v1/patient/{patient_id}/therapy-thresholds"],
  ["post", "/apis/v1/patient/{patient_id}/therapy-thresholds/incurred-elsewhere"],
  ["delete", "/v2/organisation/clearinghouse"],
] as const;

describe("the OpenAPI document on clinic restrictions", () => {
  it("names the clinic restriction in the 403 of every route that refuses a restricted token, and of no other", async () => {
    const document = (await currentOpenApiDocument()) as {
      paths: Record<string, Record<string, { responses: Record<string, { description: string }> }>>;
    };
    const naming: string[] = [];
    for (const [path, operations] of Object.entries(document.paths))
      for (const [method, operation] of Object.entries(operations)) {
        const refusal = operation.responses?.["403"]?.description ?? "";
        if (refusal.includes("clinic_id_list")) naming.push(`${method} ${path}`);
      }
    expect(naming.sort()).toEqual(REFUSING.map(([method, path]) => `${method} ${path}`).sort());
    const create = document.paths["/v2/clinics"]!.post!.responses["403"]!.description;
    expect(create).toBe(
      "INSUFFICIENT_PERMISSIONS: the token holds none of clinics:write, write, or it is restricted to clinics (clinic_id_list) and so cannot add a clinic",
    );
  });
});
