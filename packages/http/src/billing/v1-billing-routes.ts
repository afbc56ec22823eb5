import type { BillingCode, BillingCodeDraft, CptModifier } from "@openpractice/core";
import { v1EnvelopeSchema, v1Success } from "../contracts/v1-contract.js";
import { routeGroup, type Static } from "../define-route.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { NOTE_SCOPES } from "../soap/v1-soap-routes.js";
import { arrayOf, boolean, described, id, integer, replyObject, plainText } from "../openapi/reply-schemas.js";
import { nullable, type JsonSchema } from "../validation/json-schema.js";

const strings = { type: "array", maxItems: 50, items: { type: "string", minLength: 1, maxLength: 40 } } as const;
const modifier = {
  type: "object",
  additionalProperties: false,
  required: ["cpt_modifier_id", "cpt_modifier_code"],
  properties: {
    cpt_modifier_id: { type: "integer", minimum: 1 },
    cpt_modifier_code: { type: "string", minLength: 2, maxLength: 2 },
    class_name: { type: "string", maxLength: 100 },
    description: { type: "string", maxLength: 300 },
    filter: { type: "boolean" },
  },
} as const;
const uploadSchema = {
  $id: "V1TreatmentCatalogUpload",
  type: "object",
  additionalProperties: false,
  required: ["codes"],
  properties: {
    codes: {
      type: "array",
      minItems: 1,
      maxItems: 2000,
      items: {
        type: "object",
        additionalProperties: false,
        required: ["code", "description", "timed"],
        properties: {
          code: { type: "string", description: "5-character CPT or HCPCS number" },
          description: { type: "string", description: "Your own wording (CPT descriptions are licensed text)" },
          timed: { type: "boolean", description: "Billed in 15-minute units" },
          modifiers: { type: "array", maxItems: 30, items: modifier },
          specialities: { ...strings, description: "Empty: every speciality" },
          note_types: { ...strings, description: "Empty: every note type" },
          payer_ids: { ...strings, description: "Empty: every payer" },
          active: { type: "boolean" },
        },
      },
    },
  },
} as const;

/** A modifier as v1 shows it, in the catalog and on a treatment sheet's lines. */
export const v1ModifierSchema: JsonSchema = replyObject(
  { cpt_modifier_id: id, cpt_modifier_code: plainText, class_name: plainText, description: plainText, filter: boolean },
  { title: "V1CptModifier" },
);

/** A billing code of the catalog (codeView). */
const V1_BILLING_CODE_SCHEMA: JsonSchema = replyObject(
  {
    treatment_class_id: described(id, "What treatment sheet lines name"),
    code: described(plainText, "CPT or HCPCS number"),
    description: plainText,
    timed: described(boolean, "Billed in 15-minute units"),
    unit_minutes: described({ type: ["integer", "null"] }, "15 for timed codes, else null"),
    modifiers: arrayOf(v1ModifierSchema),
    specialities: arrayOf(plainText, "Empty: every speciality"),
    note_types: arrayOf(plainText, "Empty: every note type"),
    payer_ids: arrayOf(plainText, "Empty: every payer"),
    active: boolean,
  },
  { title: "V1BillingCode" },
);

export const v1ModifierView = (m: CptModifier) => ({
  cpt_modifier_id: m.cptModifierId,
  cpt_modifier_code: m.cptModifierCode,
  class_name: m.className,
  description: m.description,
  filter: m.filter,
});

export const codeView = (c: BillingCode) => ({
  treatment_class_id: c.id,
  code: c.code,
  description: c.description,
  timed: c.timed,
  unit_minutes: c.timed ? 15 : null,
  modifiers: c.modifiers.map(v1ModifierView),
  specialities: c.specialities,
  note_types: c.noteTypes,
  payer_ids: c.payerIds,
  active: c.active,
});

type V1BillingCodeUpload = Static<typeof uploadSchema>["codes"][number];

export function draftFromWire(c: V1BillingCodeUpload): BillingCodeDraft {
  return {
    code: c.code,
    description: c.description,
    timed: c.timed,
    modifiers: (c.modifiers ?? []).map((m) => ({
      cptModifierId: m.cpt_modifier_id,
      cptModifierCode: m.cpt_modifier_code,
      className: m.class_name ?? "",
      description: m.description ?? "",
      filter: m.filter ?? false,
    })),
    specialities: c.specialities,
    noteTypes: c.note_types,
    payerIds: c.payer_ids,
    active: c.active,
  };
}

/** The billing-code catalog: an admin upload, the whole list, and the codes that apply to a visit (spec 4.1). */
export function v1BillingRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  // The catalog is read with the notes' scopes (it serves documentation); uploading it is an admin's.
  const route = routeGroup({
    contract: "v1",
    tags: ["Billing codes (v1)"],
    auth: true,
    scopes: NOTE_SCOPES,
    fieldNames: Object.freeze({
      codes: "codes",
      cptModifierId: "cpt_modifier_id",
      cptModifierCode: "cpt_modifier_code",
    }),
  });
  const errorBody = { $ref: "#/components/schemas/V1Error" };
  return [
    route({
      method: "POST",
      path: "/apis/v1/treatment-catalog",
      operationId: "v1UploadTreatmentCatalog",
      summary:
        "Admin: insert or replace billing codes by number (the whole upload is checked first, then written in one transaction).",
      scopes: Object.freeze(["catalog:write", "admin"]),
      requestBody: uploadSchema,
      responses: {
        "200": {
          description: "How many codes were created and updated",
          schema: v1EnvelopeSchema(replyObject({ created: integer, updated: integer })),
        },
        "400": { description: "VALIDATION_FAILED naming codes.N.field", schema: errorBody },
      },
      async handle(ctx) {
        return v1Success(
          await practice.billingCatalog.upsert(ctx.principal, (await ctx.body()).codes.map(draftFromWire)),
        );
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/treatment-catalog",
      operationId: "v1ListTreatmentCatalog",
      summary: "The organisation's whole billing-code catalog, in code order.",
      access: "read",
      responses: { "200": { description: "Codes", schema: v1EnvelopeSchema(arrayOf(V1_BILLING_CODE_SCHEMA)) } },
      async handle(ctx) {
        return v1Success((await practice.billingCatalog.applicableAll(ctx.principal)).map(codeView));
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/treatment-catalog/latest",
      operationId: "v1TreatmentCatalogLatest",
      summary:
        "The active billing codes that apply to an appointment's visit for the speciality, note type and payer (spec 4.1 parameters).",
      access: "read",
      query: {
        type: "object",
        additionalProperties: false,
        required: ["appointment_id", "speciality"],
        properties: {
          appointment_id: { type: "integer", minimum: 1 },
          speciality: { type: "string", minLength: 1, maxLength: 30 },
          icdCodes: {
            type: "string",
            maxLength: 500,
            description: "Comma-separated ICD codes (accepted; codes do not narrow the catalog today)",
          },
          soap_note_type: { type: "string", maxLength: 30 },
          clinic_id: { type: "integer", minimum: 1 },
          payerType: { type: "string", maxLength: 40 },
          payerId: nullable({ type: "string", maxLength: 40 }),
          planType: { type: "string", maxLength: 40 },
        },
      },
      responses: {
        "200": {
          description: "The codes that apply",
          schema: v1EnvelopeSchema(replyObject({ codes: arrayOf(V1_BILLING_CODE_SCHEMA) })),
        },
        "404": { description: "APPOINTMENT_NOT_FOUND (4004)", schema: errorBody },
      },
      async handle(ctx) {
        const q = ctx.query();
        const codes = await practice.billingCatalog.applicable(ctx.principal, {
          appointmentId: q.appointment_id,
          speciality: q.speciality,
          icdCodes: typeof q.icdCodes === "string" ? q.icdCodes.split(",") : undefined,
          soapNoteType: q.soap_note_type,
          clinicId: q.clinic_id,
          payerType: q.payerType,
          payerId: q.payerId ?? undefined,
          planType: q.planType,
        });
        return v1Success({ codes: codes.map(codeView) });
      },
    }),
  ];
}
