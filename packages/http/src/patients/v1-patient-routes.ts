import { pathIdKind } from "../contracts/path-id.js";
import { V1_PATIENT_EXISTS_CODE, V1_SUCCESS_CODE, v1EnvelopeSchema, v1Success } from "../contracts/v1-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  V1_PATIENT_FIELDS,
  v1ChangesFromBody,
  v1DraftFromBody,
  v1PatientCreateSchema,
  v1PatientSchema,
  v1PatientUpdateSchema,
  v1PatientView,
} from "./v1-patient-contract.js";

const envelope = v1EnvelopeSchema;
const v1ErrorBody = { $ref: "#/components/schemas/V1Error" };

/** A patient path id: a positive integer; anything else is a patient that does not exist. */
export const PATIENT_ID = pathIdKind("PATIENT_NOT_FOUND", "patient_id");
export const PATIENT_SCOPES = scopePair("patients");

export function v1PatientRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v1",
    tags: ["Patients (v1)"],
    auth: true,
    scopes: PATIENT_SCOPES,
    fieldNames: V1_PATIENT_FIELDS,
  });
  return [
    route({
      method: "POST",
      path: "/apis/v1/patient",
      operationId: "v1CreatePatient",
      summary:
        "Register a patient. A patient with the same name and date of birth is answered with code 2301 and the existing record.",
      access: "write",
      requestBody: v1PatientCreateSchema,
      responses: {
        "200": {
          description: "code 2000 with the new patient, or code 2301 with the existing one",
          schema: envelope(v1PatientSchema, [V1_SUCCESS_CODE, V1_PATIENT_EXISTS_CODE]),
        },
        "400": { description: "Validation error naming each field", schema: v1ErrorBody },
      },
      async handle(ctx) {
        const { created, patient } = await practice.patients.register(ctx.principal, v1DraftFromBody(await ctx.body()));
        return created
          ? v1Success(v1PatientView(patient))
          : v1Success(v1PatientView(patient), V1_PATIENT_EXISTS_CODE, "Patient already exists");
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/patient/:id",
      ids: { id: PATIENT_ID },
      operationId: "v1GetPatient",
      summary: "Read a patient of the caller's organisation.",
      access: "read",
      responses: {
        "200": { description: "The patient", schema: envelope(v1PatientSchema) },
        "404": { description: "No such patient in this organisation", schema: v1ErrorBody },
      },
      async handle(ctx) {
        return v1Success(v1PatientView(await practice.patients.get(ctx.principal, ctx.ids.id)));
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/patient/:id",
      ids: { id: PATIENT_ID },
      operationId: "v1UpdatePatient",
      summary: "Update a patient (partial: omitted fields keep their values; null clears an optional field).",
      access: "write",
      requestBody: v1PatientUpdateSchema,
      responses: {
        "200": { description: "The updated patient", schema: envelope(v1PatientSchema) },
        "400": { description: "Validation error", schema: v1ErrorBody },
        "404": { description: "No such patient in this organisation", schema: v1ErrorBody },
        "409": { description: "The change would duplicate another patient", schema: v1ErrorBody },
      },
      async handle(ctx) {
        const id = ctx.ids.id;
        const patient = await practice.patients.update(ctx.principal, id, v1ChangesFromBody(await ctx.body()));
        return v1Success(v1PatientView(patient));
      },
    }),
  ];
}
