import { requireServiceCaseId, type WaitlistRequestDraft } from "@openpractice/core";
import { jsonResponse } from "../contracts/json-response.js";
import { pathIdKind } from "../contracts/path-id.js";
import { routeGroup, scopePair } from "../define-route.js";
import { replyObject } from "../openapi/reply-schemas.js";
import { resourceRoutes } from "../resource-routes.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { v2AppointmentSchema, v2AppointmentView } from "../appointments/v2-appointment-contract.js";
import {
  V2_WAITLIST_FIELDS,
  v2WaitlistCreateSchema,
  v2WaitlistListQuerySchema,
  v2WaitlistSchema,
  v2WaitlistUpdateSchema,
  v2WaitlistView,
  waitlistChangesFromBody,
} from "./v2-waitlist-contract.js";

const REQUEST_ID = pathIdKind("WAITLIST_REQUEST_NOT_FOUND", "waitlist_request_id");
const v2ErrorBody = { $ref: "#/components/schemas/V2Error" };
const parseCaseId = (v: unknown) => requireServiceCaseId(v, "serviceCaseId");

/** The waitlist (spec 4.7): POST, GET /v2/waitlist-requests; GET, PATCH, DELETE …/{id}; POST …/{id}/accept-offer. */
export function v2WaitlistRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Waitlist (v2 beta)"],
    auth: true,
    scopes: scopePair("waitlist"),
    rateLimitBucket: "v2",
    fieldNames: V2_WAITLIST_FIELDS,
  });
  const requests = resourceRoutes(route, {
    path: "/v2/waitlist-requests",
    item: "/v2/waitlist-requests/:waitlist_request_id",
    ids: { waitlist_request_id: REQUEST_ID },
    view: v2WaitlistView,
    reply: v2WaitlistSchema,
  });
  const refused = {
    "409": { description: "INVALID_TRANSITION: details name the current status", schema: v2ErrorBody },
  };
  return [
    requests.create({
      auditResource: "waitlist_request",
      operationId: "v2CreateWaitlistRequest",
      summary:
        "Put a patient on the waitlist: the type of visit, who and where is acceptable, which days and times, between which dates. Freed slots that fit are offered to it.",
      description: "The request (status waiting)",
      requestBody: v2WaitlistCreateSchema,
      async handle(ctx) {
        const b = await ctx.body();
        const draft = {
          ...waitlistChangesFromBody(b, parseCaseId),
          patientId: Number(b.patient_id),
          appointmentTypeId: Number(b.appointment_type_id),
          paymentMode: b.payment_mode,
        } as WaitlistRequestDraft;
        return practice.waitlist.create(ctx.principal, draft);
      },
    }),
    requests.list({
      operationId: "v2ListWaitlistRequests",
      summary: "The waitlist, in the order offers go: priority (high first), then the oldest request.",
      description: "A page of requests",
      query: v2WaitlistListQuerySchema,
      async handle(ctx) {
        const q = ctx.query();
        const page = await practice.waitlist.list(ctx.principal, {
          statuses: q.status?.split(","),
          patientId: q.patient_id,
          ...(q.page === undefined ? {} : { page: q.page }),
          ...(q.per_page === undefined ? {} : { perPage: q.per_page }),
        });
        return { ...page, rows: page.requests };
      },
    }),
    requests.get({
      operationId: "v2GetWaitlistRequest",
      summary: "Read a request with its latest offer.",
      description: "The request",
      handle: (ctx) => practice.waitlist.get(ctx.principal, ctx.ids.waitlist_request_id),
    }),
    requests.update({
      operationId: "v2UpdateWaitlistRequest",
      summary: "Change a waiting or offered request: omitted fields keep their values, lists given replace the list.",
      description: "The request after the change",
      requestBody: v2WaitlistUpdateSchema,
      responses: refused,
      async handle(ctx) {
        const changes = waitlistChangesFromBody(await ctx.body(), parseCaseId);
        return practice.waitlist.update(ctx.principal, ctx.ids.waitlist_request_id, changes);
      },
    }),
    requests.deactivate({
      operationId: "v2CancelWaitlistRequest",
      summary:
        "Take a request off the waitlist (status cancelled; the record stays). A pending offer is withdrawn and its slot offered to the next request.",
      description: "The cancelled request",
      responses: refused,
      handle: (ctx) => practice.waitlist.cancel(ctx.principal, ctx.ids.waitlist_request_id),
    }),
    route({
      method: "POST",
      path: "/v2/waitlist-requests/:waitlist_request_id/accept-offer",
      ids: { waitlist_request_id: REQUEST_ID },
      operationId: "v2AcceptWaitlistOffer",
      summary:
        "Book the pending offer's slot: the appointment, the offer accepted and the request booked, in one transaction. 409 WAITLIST_OFFER_EXPIRED once its hold ran out.",
      access: "write",
      responses: {
        "201": {
          description: "The request (booked) and the appointment",
          schema: replyObject(
            { waitlist_request: v2WaitlistSchema, appointment: v2AppointmentSchema },
            { title: "WaitlistOfferAccepted" },
          ),
        },
        "409": {
          description: "INVALID_TRANSITION (no pending offer), WAITLIST_OFFER_EXPIRED or SLOT_UNAVAILABLE",
          schema: v2ErrorBody,
        },
      },
      async handle(ctx) {
        const { view, outcome } = await practice.waitlist.acceptOffer(ctx.principal, ctx.ids.waitlist_request_id);
        const providers = await practice.appointments.providersOf(ctx.principal, [outcome.appointment]);
        return jsonResponse(
          201,
          { waitlist_request: v2WaitlistView(view), appointment: v2AppointmentView(outcome.appointment, providers) },
          { location: `${ctx.basePath}/v2/appointments/${outcome.appointment.id}` },
        );
      },
    }),
  ];
}
