import { DomainError, hasAnyScope, type Patient, type Principal } from "@openpractice/core";
import { jsonResponse } from "../contracts/json-response.js";
import { v2ListSchema, v2Meta, v2Pagination } from "../contracts/v2-contract.js";
import { routeGroup } from "../define-route.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { NOTE_SCOPES } from "../soap/v1-soap-routes.js";
import { PATIENT_ID, PATIENT_SCOPES } from "./v1-patient-routes.js";
import {
  projectFields,
  V2_PATIENT_FIELDS,
  v2ChangesFromBody,
  v2DraftFromBody,
  v2PatientCreateSchema,
  v2PatientListQuerySchema,
  v2PatientReadQuerySchema,
  v2PatientReadSchema,
  v2PatientSchema,
  v2PatientUpdateSchema,
  v2PatientView,
  withExpansions,
  type V2Expansion,
} from "./v2-patient-contract.js";

const v2ErrorBody = { $ref: "#/components/schemas/V2Error" };
const list = (raw: unknown): string[] | undefined =>
  typeof raw === "string" && raw !== "" ? [...new Set(raw.split(","))] : undefined;

export function v2PatientRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  /**
   * Patients as v2 shows them, with `expand` and `fields`. Medical records are read
   * for all of them at once (one query for the page); appointments per patient, at
   * most 100 each, by start time.
   */
  async function render(
    principal: Principal,
    q: { readonly fields?: string | undefined; readonly expand?: string | undefined },
    patients: readonly Patient[],
  ) {
    const expand = (list(q.expand) ?? []) as V2Expansion[];
    // Medical records are clinical notes: the caller needs the notes' read scope as well as the patients'.
    if (expand.includes("medical_records") && !hasAnyScope(principal, NOTE_SCOPES.read)) {
      throw new DomainError(
        "INSUFFICIENT_PERMISSIONS",
        `expand=medical_records needs the ${NOTE_SCOPES.read.join(" or ")} scope`,
        {
          required_scope: NOTE_SCOPES.read[0],
          accepted_scopes: [...NOTE_SCOPES.read],
          current_scopes: [...principal.scopes],
        },
      );
    }
    const records = expand.includes("medical_records")
      ? await practice.soapNotes.medicalRecords(
          principal,
          patients.map((p) => p.id),
        )
      : undefined;
    return Promise.all(
      patients.map(async (patient) => {
        const appointments = expand.includes("appointments")
          ? (await practice.appointments.list(principal, { patientId: patient.id, size: 100 })).appointments
          : [];
        return projectFields(
          withExpansions(v2PatientView(patient), expand, { appointments, medicalRecords: records?.get(patient.id) }),
          list(q.fields),
          expand,
        );
      }),
    );
  }

  const route = routeGroup({
    contract: "v2",
    tags: ["Patients (v2 beta)"],
    auth: true,
    scopes: PATIENT_SCOPES,
    rateLimitBucket: "v2",
    fieldNames: V2_PATIENT_FIELDS,
  });
  const errors = {
    "400": { description: "INVALID_PARAMETER or VALIDATION_FAILED", schema: v2ErrorBody },
    "401": { description: "UNAUTHORIZED", schema: v2ErrorBody },
    "403": { description: "INSUFFICIENT_PERMISSIONS", schema: v2ErrorBody },
    "429": { description: "RATE_LIMIT_EXCEEDED (Retry-After header)", schema: v2ErrorBody },
  };
  return [
    route({
      method: "GET",
      path: "/v2/patients",
      readsOnly: true,
      operationId: "v2ListPatients",
      summary: "List patients, paginated, searchable and filterable (spec 4.6).",
      access: "read",
      query: v2PatientListQuerySchema,
      responses: {
        "200": {
          description: "A page of patients",
          schema: v2ListSchema(v2PatientReadSchema),
        },
        ...errors,
      },
      async handle(ctx) {
        const q = ctx.query();
        const page = await practice.patients.list(ctx.principal, {
          page: q.page,
          perPage: q.per_page,
          search: q.search,
          createdAfter: q.created_after,
          createdBefore: q.created_before,
          updatedAfter: q.updated_after,
          updatedBefore: q.updated_before,
          sort: q.sort,
          order: q.order,
          status: q.status,
        });
        return jsonResponse(200, {
          data: await render(ctx.principal, ctx.query(), page.patients),
          pagination: v2Pagination({
            page: page.page,
            perPage: page.perPage,
            total: page.total,
            totalExact: page.totalExact,
            hasNext: page.hasNext,
            returned: page.patients.length,
          }),
          meta: v2Meta(ctx),
        });
      },
    }),
    route({
      method: "POST",
      path: "/v2/patients",
      operationId: "v2CreatePatient",
      hitWithWrite: true,
      summary:
        "Register a patient. 409 DUPLICATE_PATIENT names the existing patient with the same name and date of birth.",
      access: "write",
      requestBody: v2PatientCreateSchema,
      responses: {
        "201": { description: "The new patient", schema: v2PatientSchema },
        "409": { description: "DUPLICATE_PATIENT", schema: v2ErrorBody },
        ...errors,
      },
      async handle(ctx) {
        const { created, patient } = await practice.patients.register(ctx.principal, v2DraftFromBody(await ctx.body()));
        if (!created) {
          throw new DomainError("DUPLICATE_PATIENT", "A patient with the same name and date of birth already exists", {
            existing_patient_id: patient.id,
          });
        }
        return jsonResponse(201, v2PatientView(patient), { location: `${ctx.basePath}/v2/patients/${patient.id}` });
      },
    }),
    route({
      method: "GET",
      path: "/v2/patients/:id",
      ids: { id: PATIENT_ID },
      readsOnly: true,
      operationId: "v2GetPatient",
      summary: "Read one patient; `fields` and `expand` work as on the list.",
      access: "read",
      query: v2PatientReadQuerySchema,
      responses: {
        "200": { description: "The patient", schema: v2PatientReadSchema },
        "404": { description: "PATIENT_NOT_FOUND", schema: v2ErrorBody },
        ...errors,
      },
      async handle(ctx) {
        const [patient] = await render(ctx.principal, ctx.query(), [
          await practice.patients.get(ctx.principal, ctx.ids.id),
        ]);
        return jsonResponse(200, patient);
      },
    }),
    route({
      method: "PATCH",
      path: "/v2/patients/:id",
      ids: { id: PATIENT_ID },
      operationId: "v2UpdatePatient",
      hitWithWrite: true,
      summary: "Update a patient (partial).",
      access: "write",
      requestBody: v2PatientUpdateSchema,
      responses: {
        "200": { description: "The updated patient", schema: v2PatientSchema },
        "404": { description: "PATIENT_NOT_FOUND", schema: v2ErrorBody },
        "409": { description: "DUPLICATE_PATIENT", schema: v2ErrorBody },
        ...errors,
      },
      async handle(ctx) {
        const patient = await practice.patients.update(ctx.principal, ctx.ids.id, v2ChangesFromBody(await ctx.body()));
        return jsonResponse(200, v2PatientView(patient));
      },
    }),
  ];
}
