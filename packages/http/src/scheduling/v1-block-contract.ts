import {
  BLOCK_EDIT_SCOPES,
  BLOCK_LIMITS,
  type Appointment,
  type ProviderBlock,
  type SeriesOccurrence,
} from "@openpractice/core";
import { zonelessUtc } from "../patients/v1-patient-contract.js";
import {
  arrayOf,
  boolean,
  described,
  id,
  integer,
  plainText,
  replyObject,
  textOrNull,
  zonelessTime,
  zonelessTimeOrNull,
} from "../openapi/reply-schemas.js";

/** RFC 3339 with an offset: a block is an instant, whichever zone the client writes it in. */
const INSTANT = {
  type: "string",
  format: "date-time",
  description: "RFC 3339 with its offset, e.g. 2031-03-05T12:00:00-06:00",
} as const;
const HH_MM = { type: "string", pattern: "^([01][0-9]|2[0-3]):[0-5][0-9]$" } as const;
const DATE = { type: "string", format: "date" } as const;

/** Domain field → v1 wire field. */
export const V1_BLOCK_FIELDS = {
  startsAt: "start",
  endsAt: "end",
  timeZone: "time_zone",
  occurrenceDate: "occurrence_date",
  startTime: "start_time",
  endTime: "end_time",
} as const;

export const v1BlockSchema = replyObject(
  {
    block_id: id,
    doctor_id: id,
    series_id: described(id, "The series it belongs to: its own id, or the block it was split from"),
    start: described(zonelessTime, "The first occurrence's start (zoneless UTC, as all v1 times)"),
    end: zonelessTime,
    reason: plainText,
    time_zone: textOrNull,
    rrule: textOrNull,
    exceptions: arrayOf(
      replyObject({
        occurrence_date: plainText,
        kind: plainText,
        start: zonelessTimeOrNull,
        end: zonelessTimeOrNull,
        reason: textOrNull,
      }),
    ),
    last_end: zonelessTime,
    removed_at: zonelessTimeOrNull,
  },
  { title: "V1Block" },
);

export const v1BlockView = (b: ProviderBlock, doctorId: number) => ({
  block_id: b.id,
  doctor_id: doctorId,
  series_id: b.seriesId ?? b.id,
  start: zonelessUtc(b.startsAt),
  end: zonelessUtc(b.endsAt),
  reason: b.reason,
  time_zone: b.timeZone,
  rrule: b.rrule,
  exceptions: b.exceptions.map((e) => ({
    occurrence_date: e.occurrenceDate,
    kind: e.kind,
    start: e.startsAt ? zonelessUtc(e.startsAt) : null,
    end: e.endsAt ? zonelessUtc(e.endsAt) : null,
    reason: e.reason,
  })),
  last_end: zonelessUtc(b.lastEndsAt),
  removed_at: b.removedAt ? zonelessUtc(b.removedAt) : null,
});

const overlappedSchema = replyObject({ appointment_id: id, start: zonelessTime, end: zonelessTime });
export const overlappedView = (a: Appointment) => ({
  appointment_id: a.id,
  start: zonelessUtc(a.startsAt),
  end: zonelessUtc(a.endsAt),
});

/** A write's answer: the block, the block a split made, and the booked appointments it newly covers. */
export const v1BlockWriteSchema = replyObject(
  {
    block: v1BlockSchema,
    created_block: { anyOf: [v1BlockSchema, { type: "null" }] },
    overlapping_appointments: arrayOf(overlappedSchema, "Booked visits it now covers (at most 100): move them"),
    overlapping_count: integer,
  },
  { title: "V1BlockWrite" },
);

export const v1OccurrenceSchema = replyObject(
  {
    block_id: id,
    series_id: id,
    doctor_id: id,
    occurrence_date: described(plainText, "The occurrence's original date in the block's zone (its RECURRENCE-ID)"),
    start: zonelessTime,
    end: zonelessTime,
    reason: plainText,
    recurring: boolean,
    modified: described(boolean, "An exception of its series changed it"),
  },
  { title: "V1BlockOccurrence" },
);

export const v1OccurrenceView = (o: SeriesOccurrence & { block: ProviderBlock }, doctorId: number) => ({
  block_id: o.block.id,
  series_id: o.block.seriesId ?? o.block.id,
  doctor_id: doctorId,
  occurrence_date: o.occurrenceDate,
  start: zonelessUtc(o.start),
  end: zonelessUtc(o.end),
  reason: o.reason,
  recurring: o.block.rrule !== null,
  modified: o.modified,
});

export const v1BlockCreateSchema = {
  type: "object",
  additionalProperties: false,
  required: ["start", "end", "reason"],
  properties: {
    start: INSTANT,
    end: INSTANT,
    reason: { type: "string", minLength: 1, maxLength: BLOCK_LIMITS.reasonMax },
    time_zone: {
      type: "string",
      maxLength: 64,
      description: "IANA zone a recurring block keeps its wall-clock times in",
    },
    rrule: {
      type: "string",
      maxLength: BLOCK_LIMITS.maxRruleLength,
      description:
        "RFC 5545 RRULE (DAILY, WEEKLY or MONTHLY; COUNT or UNTIL required), e.g. FREQ=WEEKLY;BYDAY=WE;COUNT=8",
    },
  },
} as const;

/** modify-block: one occurrence, this and the following, or all of a series; a one-off block by its instants. */
export const v1BlockModifySchema = {
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: {
    scope: { type: "string", enum: [...BLOCK_EDIT_SCOPES], description: "Required for a recurring block" },
    occurrence_date: {
      ...DATE,
      description: "The occurrence this and this_and_following start at (its original date)",
    },
    start_time: { ...HH_MM, description: "A recurring block's new wall-clock start, in its zone" },
    end_time: { ...HH_MM, description: "A recurring block's new wall-clock end" },
    start: { ...INSTANT, description: "A one-off block's new start" },
    end: { ...INSTANT, description: "A one-off block's new end" },
    reason: { type: "string", minLength: 1, maxLength: BLOCK_LIMITS.reasonMax },
  },
} as const;

export const v1BlockDeleteQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    scope: { type: "string", enum: [...BLOCK_EDIT_SCOPES], description: "Required for a recurring block" },
    occurrence_date: DATE,
  },
} as const;

export const v1BlockListQuery = {
  type: "object",
  additionalProperties: false,
  properties: {
    doctor_id: { type: "integer", minimum: 1 },
    clinic_id: { type: "integer", minimum: 1, description: "Blocks of the doctors who work at this clinic" },
    from: { ...INSTANT, description: "Default: now" },
    to: { ...INSTANT, description: "Default: 31 days after from; at most 366 days after it" },
  },
} as const;
