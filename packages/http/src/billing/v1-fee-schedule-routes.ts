import { DomainError, FEE_SCHEDULE_LIMITS, type FeeScheduleRow } from "@openpractice/core";
import { CsvError, parse } from "csv-parse/sync";
import { v1EnvelopeSchema, v1Pagination, V1_PAGINATION_SCHEMA, v1Success } from "../contracts/v1-contract.js";
import { routeGroup } from "../define-route.js";
import { arrayOf, described, integer, plainText, replyObject } from "../openapi/reply-schemas.js";
import { readTextBody } from "../request-body.js";
import type { RouteDefinition, RouteDependencies } from "../route.js";
import { dollars } from "../medicare/medicare-views.js";

/** A schedule of a few thousand codes is some 100 KB; a file over 2 MiB is not one. */
const CSV_LIMIT_BYTES = 2 * 1024 * 1024;
const COLUMNS = ["year", "code", "allowed_amount"] as const;

/** The CSV's lines as rows with their line numbers; a malformed file or header is 400 naming the line. */
function rowsOf(text: string): FeeScheduleRow[] {
  let records: Array<{ record: Record<string, string>; info: { lines: number } }>;
  try {
    records = parse(text, {
      columns: (header: string[]) => {
        const names = header.map((h) => h.trim().toLowerCase());
        const unknown = names.filter((n) => !(COLUMNS as readonly string[]).includes(n));
        const missing = COLUMNS.filter((c) => !names.includes(c));
        if (unknown.length > 0 || missing.length > 0)
          throw DomainError.validation([
            {
              field: "lines.1",
              reason: `line 1: the header must name ${COLUMNS.join(", ")}${unknown.length > 0 ? `; unknown: ${unknown.join(", ")}` : ""}`,
            },
          ]);
        return names;
      },
      skip_empty_lines: true,
      bom: true,
      info: true,
    });
  } catch (error) {
    if (error instanceof DomainError) throw error;
    if (error instanceof CsvError)
      throw DomainError.validation([
        { field: `lines.${error.lines ?? 0}`, reason: `line ${error.lines ?? "?"}: ${error.message}` },
      ]);
    throw error;
  }
  return records.map(({ record, info }) => ({
    line: info.lines,
    year: record.year,
    code: record.code,
    allowedAmount: record.allowed_amount,
  }));
}

const entrySchema = replyObject(
  {
    year: integer,
    code: plainText,
    allowed_amount: described(plainText, "Dollars with two decimals"),
  },
  { title: "FeeScheduleEntry" },
);

/** POST/GET /apis/v1/fee-schedule: the organisation's allowed amounts by year and code (docs/medicare-therapy.md). */
export function v1FeeScheduleRoutes({ practice }: RouteDependencies): RouteDefinition[] {
  const route = routeGroup({ contract: "v1", tags: ["Billing (v1)"], auth: true });
  const errorBody = { $ref: "#/components/schemas/V1Error" };
  return [
    {
      ...route({
        method: "POST",
        path: "/apis/v1/fee-schedule",
        operationId: "v1ImportFeeSchedule",
        summary:
          "Admin: import allowed amounts from a CSV (year,code,allowed_amount); each year listed is replaced whole, every line checked first, nothing imported when one is wrong.",
        scopes: Object.freeze(["catalog:write", "admin"]),
        clinicRestriction: "so cannot change the organisation-wide fee schedule",
        auditResource: "fee_schedule",
        auditNamesCreated: true,
        responses: {
          "200": {
            description: "How many fees each year now has",
            schema: v1EnvelopeSchema(
              replyObject(
                { years: { type: "object", additionalProperties: integer, description: "Year → fees imported" } },
                { title: "FeeScheduleImport" },
              ),
            ),
          },
          "400": {
            description: "VALIDATION_FAILED naming lines.<n>.<column> with the line number, for every bad line",
            schema: errorBody,
          },
          "413": { description: "PAYLOAD_TOO_LARGE: over 2 MiB", schema: errorBody },
          "415": { description: "UNSUPPORTED_MEDIA_TYPE: not text/csv", schema: errorBody },
        },
        async handle(ctx) {
          const text = await readTextBody(ctx.request, CSV_LIMIT_BYTES, /^text\/csv\b/i, "text/csv");
          return v1Success(await practice.feeSchedules.import(ctx.principal, rowsOf(text)));
        },
      }),
      requestContentType: "text/csv",
    },
    route({
      method: "GET",
      path: "/apis/v1/fee-schedule",
      operationId: "v1ListFeeSchedule",
      summary: "One year's allowed amounts, in code order.",
      scopes: Object.freeze(["read", "catalog:write", "admin"]),
      query: {
        type: "object",
        additionalProperties: false,
        required: ["year"],
        properties: {
          year: { type: "integer", minimum: FEE_SCHEDULE_LIMITS.yearMin, maximum: FEE_SCHEDULE_LIMITS.yearMax },
          page: { type: "integer", minimum: 1 },
          size: { type: "integer", minimum: 1, maximum: FEE_SCHEDULE_LIMITS.maxPerPage },
        },
      },
      responses: {
        "200": {
          description: "The year's fees",
          schema: v1EnvelopeSchema(replyObject({ fees: arrayOf(entrySchema), pagination: V1_PAGINATION_SCHEMA })),
        },
      },
      async handle(ctx) {
        const q = ctx.query();
        const found = await practice.feeSchedules.list(ctx.principal, { year: q.year, page: q.page, perPage: q.size });
        return v1Success({
          fees: found.entries.map((e) => ({
            year: e.year,
            code: e.code,
            allowed_amount: dollars(e.allowedCents),
          })),
          pagination: v1Pagination({ page: found.page, size: found.perPage, total: found.total }),
        });
      },
    }),
  ];
}
