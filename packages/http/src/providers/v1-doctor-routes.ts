import { pathIdKind } from "../contracts/path-id.js";
import { V1_PAGINATION_SCHEMA, v1EnvelopeSchema, v1Pagination, v1Success } from "../contracts/v1-contract.js";
import { routeGroup, scopePair } from "../define-route.js";
import { arrayOf, replyObject } from "../openapi/reply-schemas.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import {
  doctorChangesFromBody,
  V1_DOCTOR_FIELDS,
  v1DoctorCreateSchema,
  v1DoctorListQuery,
  v1DoctorSchema,
  v1DoctorUpdateSchema,
  v1DoctorView,
} from "./v1-doctor-contract.js";

const DOCTOR_ID = pathIdKind("PROVIDER_NOT_FOUND", "doctor_id");
const v1ErrorBody = { $ref: "#/components/schemas/V1Error" };
const doctorBody = v1EnvelopeSchema(v1DoctorSchema);
const error = (description: string) => ({ description, schema: v1ErrorBody });

/**
 * v1 doctors (spec 4.7's "doctor create, list, read, update"): the providers of /v2/providers, keyed by doctor_id
 * (their user id), with the same rules; what one version writes the other reads.
 */
export function v1DoctorRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v1",
    tags: ["Clinics and providers (v1)"],
    auth: true,
    scopes: scopePair("providers"),
    fieldNames: V1_DOCTOR_FIELDS,
  });
  const providers = practice.providers;
  return [
    route({
      method: "POST",
      path: "/apis/v1/doctor",
      auditResource: "provider",
      auditNamesCreated: true,
      operationId: "v1CreateDoctor",
      summary:
        "Add a doctor (active), the same provider /v2/providers shows: NPI check digit, doctor id and NPI unique in the organisation, clinics and supervising physician must exist.",
      access: "write",
      clinicRestriction: "the new doctor would not be restricted to some of its own clinics",
      requestBody: v1DoctorCreateSchema,
      responses: {
        "200": { description: "The doctor", schema: doctorBody },
        "400": error(
          "VALIDATION_FAILED naming the field (npi check digit, an unknown clinic or supervising physician)",
        ),
        "409": error("DUPLICATE_PROVIDER: the doctor id or the NPI is another provider's (details.field)"),
      },
      async handle(ctx) {
        const b = await ctx.body();
        const { active: _, ...changes } = doctorChangesFromBody(b);
        const created = await providers.create(ctx.principal, {
          ...changes,
          userId: b.doctor_id,
          firstName: b.first_name,
          lastName: b.last_name,
        });
        return v1Success(v1DoctorView(created));
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/doctors",
      operationId: "v1ListDoctors",
      summary:
        "The organisation's doctors by last name: active ones unless active says otherwise, by clinic or speciality.",
      access: "read",
      query: v1DoctorListQuery,
      responses: {
        "200": {
          description: "A page of doctors",
          schema: v1EnvelopeSchema(replyObject({ doctors: arrayOf(v1DoctorSchema), pagination: V1_PAGINATION_SCHEMA })),
        },
      },
      async handle(ctx) {
        const q = ctx.query();
        const found = await providers.list(ctx.principal, {
          page: q.page,
          perPage: q.size,
          status: q.active === "all" ? "all" : q.active === "false" ? "inactive" : "active",
          clinicId: q.clinic_id,
          speciality: q.speciality,
        });
        return v1Success({
          doctors: found.providers.map(v1DoctorView),
          pagination: v1Pagination({ page: found.page, size: found.perPage, total: found.total }),
        });
      },
    }),
    route({
      method: "GET",
      path: "/apis/v1/doctor/:doctor_id",
      ids: { doctor_id: DOCTOR_ID },
      operationId: "v1GetDoctor",
      summary: "One doctor, active or not, by doctor id.",
      access: "read",
      responses: { "200": { description: "The doctor", schema: doctorBody } },
      async handle(ctx) {
        return v1Success(v1DoctorView(await providers.getByUserId(ctx.principal, ctx.ids.doctor_id)));
      },
    }),
    route({
      method: "POST",
      path: "/apis/v1/doctor/:doctor_id",
      ids: { doctor_id: DOCTOR_ID },
      auditResource: "provider",
      operationId: "v1UpdateDoctor",
      summary:
        "Change a doctor: omitted fields keep their values, null clears an optional one, lists given replace the list; active false deactivates. The doctor id never changes.",
      access: "write",
      clinicRestriction: "the doctor, before or after the change, is not restricted to some of its own clinics",
      requestBody: v1DoctorUpdateSchema,
      responses: {
        "200": { description: "The doctor", schema: doctorBody },
        "400": error("VALIDATION_FAILED naming the field"),
        "409": error("DUPLICATE_PROVIDER: the NPI is another provider's"),
      },
      async handle(ctx) {
        // The body first: a malformed one is refused as such, whoever the path names.
        const changes = doctorChangesFromBody(await ctx.body());
        const current = await providers.getByUserId(ctx.principal, ctx.ids.doctor_id);
        return v1Success(v1DoctorView(await providers.update(ctx.principal, current.id, changes)));
      },
    }),
  ];
}
