import { CLEARINGHOUSE_LIMITS, type ClearinghouseSettings, type ClearinghouseSource } from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { jsonResponse } from "../contracts/json-response.js";
import { optionalBody } from "../contracts/optional-body.js";
import { routeGroup } from "../define-route.js";
import {
  arrayOf,
  boolean,
  dateTimeOrNull,
  described,
  integer,
  integerOrNull,
  oneOfStrings,
  plainText,
  replyObject,
  textOrNull,
} from "../openapi/reply-schemas.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { nullable } from "../validation/json-schema.js";

/** The clearinghouse is the organisation's business: its administrator's, as API clients are. */
const ADMIN = ["admin"] as const;
const L = CLEARINGHOUSE_LIMITS;

const FIELDS: FieldNames = Object.freeze({
  submitterId: "submitter_id",
  receiverId: "receiver_id",
  providerNpi: "provider_npi",
  providerName: "provider_name",
  timeoutMs: "timeout_ms",
  caPem: "ca_pem",
});

const settingsBody = {
  $id: "V2ClearinghouseSettings",
  type: "object",
  additionalProperties: false,
  required: ["url", "username", "submitter_id", "receiver_id", "provider_npi", "provider_name"],
  properties: {
    url: { type: "string", maxLength: L.urlMax, description: "https:// endpoint taking the 270 (CAQH CORE real-time)" },
    username: { type: "string", maxLength: L.usernameMax },
    password: {
      type: "string",
      maxLength: L.passwordMax,
      description: "Required the first time; left out, the stored one is kept; a new one rotates it. Never shown again",
    },
    submitter_id: { type: "string", maxLength: L.envelopeIdMax, description: "ISA06/GS02" },
    receiver_id: { type: "string", maxLength: L.envelopeIdMax, description: "ISA08/GS03" },
    provider_npi: { type: "string", maxLength: 10, description: "The billing provider of the inquiries (2100B)" },
    provider_name: { type: "string", maxLength: L.providerNameMax },
    timeout_ms: nullable({ type: "integer", description: `${L.timeoutMin} to ${L.timeoutMax}; default 20000` }),
    ca_pem: nullable({
      type: "string",
      maxLength: L.caMax,
      description: "Certificate authorities (PEM) to trust besides the public ones",
    }),
    usage: { type: "string", enum: ["P", "T"], description: "ISA15: P production (default), T test" },
  },
} as const;

const testBody = {
  $id: "V2ClearinghouseTest",
  type: "object",
  additionalProperties: false,
  properties: {
    payer_id: {
      type: "string",
      minLength: 1,
      maxLength: 80,
      description: "The payer the test 270 is addressed to (2100A); default CMS (Medicare)",
    },
  },
} as const;

const SOURCES = ["api", "environment", "none"] as const;
const settingsSchema = replyObject(
  {
    source: described(oneOfStrings(SOURCES), "What the organisation's checks use: its own settings, the host's, none"),
    url: textOrNull,
    username: textOrNull,
    password_set: boolean,
    submitter_id: textOrNull,
    receiver_id: textOrNull,
    provider_npi: textOrNull,
    provider_name: textOrNull,
    timeout_ms: integerOrNull,
    ca_pem: textOrNull,
    usage: textOrNull,
    password_set_at: dateTimeOrNull,
    last_tested_at: dateTimeOrNull,
    last_test_outcome: described(
      textOrNull,
      "ok, or why the last test got no 271 (timeout, unavailable, invalid_response)",
    ),
    updated_at: dateTimeOrNull,
  },
  { title: "ClearinghouseSettings" },
);

/** The settings as the API shows them: never the password, only that one is set. */
function settingsView(source: ClearinghouseSource, s: ClearinghouseSettings | null) {
  return {
    source,
    url: s?.url ?? null,
    username: s?.username ?? null,
    password_set: s !== null,
    submitter_id: s?.submitterId ?? null,
    receiver_id: s?.receiverId ?? null,
    provider_npi: s?.providerNpi ?? null,
    provider_name: s?.providerName ?? null,
    timeout_ms: s?.timeoutMs ?? null,
    ca_pem: s?.caPem ?? null,
    usage: s?.usage ?? null,
    password_set_at: s?.passwordSetAt.toISOString() ?? null,
    last_tested_at: s?.lastTestedAt?.toISOString() ?? null,
    last_test_outcome: s?.lastTestOutcome ?? null,
    updated_at: s?.updatedAt.toISOString() ?? null,
  };
}

/**
 * GET/PUT/DELETE /v2/organisation/clearinghouse and POST …/test: an organisation's administrator sets, rotates,
 * tests and removes its clearinghouse without a restart (docs/insurance.md#clearinghouse-per-organisation).
 */
export function clearinghouseRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({
    contract: "v2",
    tags: ["Eligibility (v2 beta)"],
    auth: true,
    rateLimitBucket: "v2",
    fieldNames: FIELDS,
  });
  const v2Error = { $ref: "#/components/schemas/V2Error" };
  const path = "/v2/organisation/clearinghouse";
  return [
    route({
      method: "GET",
      path,
      readsOnly: true,
      operationId: "v2GetClearinghouse",
      summary:
        "The organisation's clearinghouse for real-time eligibility (never its password), and where its checks go.",
      scopes: ADMIN,
      responses: { "200": { description: "The settings", schema: settingsSchema } },
      async handle(ctx) {
        const { source, settings } = await practice.clearinghouses.get(ctx.principal);
        return jsonResponse(200, settingsView(source, settings));
      },
    }),
    route({
      method: "PUT",
      path,
      operationId: "v2SetClearinghouse",
      summary:
        "Set the organisation's clearinghouse (used from the next check, no restart); a new password rotates it, none keeps it. The password is stored sealed and never shown.",
      scopes: ADMIN,
      clinicRestriction: "so cannot change the organisation-wide clearinghouse",
      requestBody: settingsBody,
      responses: { "200": { description: "The settings", schema: settingsSchema } },
      async handle(ctx) {
        const b = await ctx.body();
        const saved = await practice.clearinghouses.save(ctx.principal, {
          url: b.url,
          username: b.username,
          password: b.password,
          submitterId: b.submitter_id,
          receiverId: b.receiver_id,
          providerNpi: b.provider_npi,
          providerName: b.provider_name,
          timeoutMs: b.timeout_ms,
          caPem: b.ca_pem,
          usage: b.usage,
        });
        return jsonResponse(200, settingsView("api", saved));
      },
    }),
    route({
      method: "DELETE",
      path,
      operationId: "v2RemoveClearinghouse",
      summary: "Remove the organisation's own clearinghouse: its checks go to the host's default again, if any.",
      scopes: ADMIN,
      clinicRestriction: "so cannot change the organisation-wide clearinghouse",
      responses: {
        "200": { description: "What the checks use now", schema: settingsSchema },
        "404": { description: "CLEARINGHOUSE_NOT_SET: the organisation set none", schema: v2Error },
      },
      async handle(ctx) {
        await practice.clearinghouses.remove(ctx.principal);
        const { source, settings } = await practice.clearinghouses.get(ctx.principal);
        return jsonResponse(200, settingsView(source, settings));
      },
    }),
    route({
      method: "POST",
      path: `${path}/test`,
      operationId: "v2TestClearinghouse",
      summary:
        "Send a 270 for a made-up member through the clearinghouse the organisation's checks use, and say whether a 271 came back.",
      scopes: ADMIN,
      requestBody: testBody,
      responses: {
        "200": {
          description: "The outcome (ok false with the failure when no 271 came)",
          schema: replyObject(
            {
              ok: boolean,
              source: oneOfStrings(SOURCES),
              duration_ms: integer,
              answered: described(textOrNull, "benefits or rejections; null without a 271"),
              rejections: arrayOf(
                replyObject(
                  { code: plainText, reason: plainText, loop: textOrNull },
                  { title: "ClearinghouseTestRejection" },
                ),
              ),
              failure: described(
                textOrNull,
                "timeout, unavailable (unreachable, refused address, HTTP error), invalid_response",
              ),
              message: textOrNull,
            },
            { title: "ClearinghouseTest" },
          ),
        },
        "409": { description: "ELIGIBILITY_NOT_CONFIGURED: no clearinghouse to test", schema: v2Error },
      },
      async handle(ctx) {
        const b = await optionalBody(ctx);
        const t = await practice.clearinghouses.test(
          ctx.principal,
          ("payer_id" in b ? b.payer_id : undefined) ?? "CMS",
        );
        return jsonResponse(200, {
          ok: t.ok,
          source: t.source,
          duration_ms: t.durationMs,
          answered: t.answered,
          rejections: t.rejections.map((r) => ({ code: r.code, reason: r.reason, loop: r.loop ?? null })),
          failure: t.failure,
          message: t.message,
        });
      },
    }),
  ];
}
