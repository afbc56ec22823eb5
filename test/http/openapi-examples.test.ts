import { currentOpenApiDocument } from "../../scripts/openapi-document.mjs";
import { describe, expect, it } from "vitest";
import { DOC_ID, documentAjv } from "../support/openapi-check.js";

describe("the OpenAPI document's named schemas", () => {
  it("give the main resources and the error shapes an example, and every example is valid against its schema", async () => {
    const doc = await currentOpenApiDocument();
    const schemas: Record<string, { examples?: unknown[] }> = doc.components.schemas;
    for (const name of ["V2Patient", "V1Patient", "V1Appointment", "V1Case", "Clinic", "Provider", "Staff"])
      expect(schemas[name]?.examples, name).toHaveLength(1);
    for (const name of ["V1Error", "V2Error", "V1Clinic", "V1Provider", "V1AppointmentOutcome", "HealthStatus"])
      expect(schemas[name]?.examples?.length, name).toBeGreaterThan(0);
    // Validated as replies are (test/http/openapi-responses.test.ts): formats checked, objects closed.
    const ajv = documentAjv(doc);
    const problems: string[] = [];
    let checked = 0;
    for (const [name, schema] of Object.entries(schemas)) {
      const validate = ajv.compile({ $ref: `${DOC_ID}#/components/schemas/${name}` });
      for (const [i, example] of (schema.examples ?? []).entries()) {
        checked += 1;
        if (!validate(example))
          problems.push(
            ...(validate.errors ?? []).map((e) => `${name} example ${i}: ${e.instancePath || "(root)"} ${e.message}`),
          );
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThanOrEqual(13);
  });

  it("are referred to from the operations, and the fields-selectable reads require only id", async () => {
    const doc = await currentOpenApiDocument();
    const json = (path: string, method: string, status: string) =>
      doc.paths[path][method].responses[status].content["application/json"].schema;
    expect(json("/v2/patients", "post", "201")).toEqual({ $ref: "#/components/schemas/V2Patient" });
    expect(json("/v2/patients/{id}", "get", "200")).toEqual({ $ref: "#/components/schemas/V2PatientFields" });
    expect(json("/apis/v1/patient/{id}", "get", "200").properties.data).toEqual({
      $ref: "#/components/schemas/V1Patient",
    });
    expect(json("/v2/clinics", "get", "200").properties.data.items).toEqual({
      $ref: "#/components/schemas/ClinicFields",
    });
    for (const name of ["V2PatientFields", "ClinicFields", "ProviderFields", "StaffFields"])
      expect(doc.components.schemas[name].required, name).toEqual(["id"]);
    for (const name of ["V2Patient", "Clinic", "Provider", "Staff"]) {
      const schema = doc.components.schemas[name];
      expect(schema.required, name).toEqual(Object.keys(schema.properties));
    }
    // v1 envelopes always carry data; v1 ids are numbers, v2 ids strings.
    expect(json("/apis/v1/patient/{id}", "get", "200").required).toEqual(["code", "data", "message"]);
    expect(doc.components.schemas.V1Patient.properties.patient_id.type).toBe("integer");
    expect(doc.components.schemas.V2Patient.properties.id.type).toBe("string");
  });
});
