import { INCURRED_ELSEWHERE_LIMITS, THERAPY_BUCKETS } from "@openpractice/core";
import { v1EnvelopeSchema, v1Success } from "../contracts/v1-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import { PATIENT_ID } from "../patients/v1-patient-routes.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { therapyChargeSchema, therapyChargeView, therapyYearSchema, therapyYearView } from "./medicare-views.js";

const errorBody = { $ref: "#/components/schemas/V1Error" };
const errors = (statuses: Record<string, string>) =>
  Object.fromEntries(
    Object.entries(statuses).map(([status, description]) => [status, { description, schema: errorBody }]),
  );

/** Read and written with the notes' scopes: the amounts come from the notes' treatment sheets. */
const SCOPES = scopePair("notes");
const ACROSS_CLINICS = "so cannot read or add to a patient's Medicare therapy year, which spans clinics";

const incurredElsewhereSchema = {
  $id: "V1IncurredElsewhere",
  type: "object",
  additionalProperties: false,
  required: ["service_date", "bucket", "amount"],
  properties: {
    service_date: { type: "string", description: "When it was incurred, YYYY-MM-DD: its year is the one it counts in" },
    bucket: {
      type: "string",
      enum: [...THERAPY_BUCKETS],
      description: "PT_SLP (physical therapy and speech-language pathology) or OT",
    },
    amount: { type: "string", description: "Dollars with at most two decimals, e.g. 412.50" },
    description: { type: ["string", "null"], maxLength: INCURRED_ELSEWHERE_LIMITS.descriptionMax },
  },
} as const;

/** GET/POST /apis/v1/patient/{patient_id}/therapy-thresholds: a Medicare beneficiary's year (docs/medicare-therapy.md). */
export function v1TherapyThresholdRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v1",
    tags: ["Medicare therapy (v1)"],
    auth: true,
    scopes: SCOPES,
    fieldNames: { serviceDate: "service_date" },
  });
  return [
    route({
      method: "GET",
      path: "/apis/v1/patient/:patient_id/therapy-thresholds",
      operationId: "v1GetTherapyThresholds",
      summary:
        "A patient's Medicare therapy year: per bucket (PT_SLP, OT) the incurred amount, what remains to the KX and the targeted review thresholds, and the charges that count.",
      access: "read",
      ids: { patient_id: PATIENT_ID },
      clinicRestriction: ACROSS_CLINICS,
      query: {
        type: "object",
        additionalProperties: false,
        required: ["year"],
        properties: { year: { type: "integer", minimum: 2000, maximum: 2100 } },
      },
      responses: {
        "200": { description: "The year", schema: v1EnvelopeSchema(therapyYearSchema) },
        ...errors({ "404": "PATIENT_NOT_FOUND" }),
      },
      async handle(ctx) {
        const { year } = ctx.query();
        return v1Success(
          therapyYearView(await practice.therapyThresholds.year(ctx.principal, ctx.ids.patient_id, year)),
        );
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/patient/:patient_id/therapy-thresholds/incurred-elsewhere",
      operationId: "v1RecordTherapyIncurredElsewhere",
      summary:
        "Record therapy the patient had elsewhere this year (another clinic, a hospital outpatient department): it counts towards the bucket's thresholds from its date.",
      access: "write",
      ids: { patient_id: PATIENT_ID },
      clinicRestriction: ACROSS_CLINICS,
      auditResource: "therapy_charge",
      auditNamesCreated: true,
      requestBody: incurredElsewhereSchema,
      responses: {
        "200": { description: "The amount as recorded", schema: v1EnvelopeSchema(therapyChargeSchema) },
        ...errors({
          "400": "VALIDATION_FAILED naming service_date, bucket, amount or description",
          "404": "PATIENT_NOT_FOUND",
        }),
      },
      async handle(ctx) {
        const b = await ctx.body();
        const charge = await practice.therapyThresholds.recordIncurredElsewhere(ctx.principal, ctx.ids.patient_id, {
          serviceDate: b.service_date,
          bucket: b.bucket,
          amount: b.amount,
          description: b.description,
        });
        return v1Success(therapyChargeView(charge));
      },
    }),
  ];
}
