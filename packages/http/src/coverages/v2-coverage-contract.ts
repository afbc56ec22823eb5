import {
  COVERAGE_LIMITS,
  COVERAGE_PRIORITIES,
  type CoverageChanges,
  type InsuranceCard,
  SUBSCRIBER_RELATIONSHIPS,
} from "@openpractice/core";
import type { FieldNames } from "../contracts/field-names.js";
import { V2_ID_INPUT } from "../contracts/v2-contract.js";
import type { Static } from "../define-route.js";
import {
  boolean,
  dateOrNull,
  dateTime,
  described,
  idText,
  idTextOrNull,
  oneOfStrings,
  orNull,
  plainText,
  replyObject,
  textOrNull,
} from "../openapi/reply-schemas.js";
import { nullable } from "../validation/json-schema.js";

const date = { type: "string", format: "date" } as const;
const name = { type: "string", minLength: 1, maxLength: COVERAGE_LIMITS.nameMax } as const;

const editable = {
  payer_ref: {
    ...V2_ID_INPUT,
    description: "The payer's id in GET /v2/payers (the registry or the organisation's own)",
  },
  member_id: { type: "string", minLength: 1, maxLength: COVERAGE_LIMITS.memberIdMax },
  group_number: nullable({ type: "string", minLength: 1, maxLength: COVERAGE_LIMITS.groupNumberMax }),
  plan_name: nullable({ type: "string", minLength: 1, maxLength: COVERAGE_LIMITS.planNameMax }),
  subscriber: nullable({
    type: "object",
    additionalProperties: false,
    required: ["relationship"],
    properties: {
      relationship: { type: "string", enum: [...SUBSCRIBER_RELATIONSHIPS] },
      first_name: nullable(name),
      last_name: nullable(name),
      date_of_birth: nullable(date),
    },
    description: "Who holds the policy; null or relationship self: the patient. Others need names and date of birth.",
  }),
  plan_start_date: nullable(date),
  plan_end_date: nullable(date),
  priority: { type: "string", enum: [...COVERAGE_PRIORITIES] },
  active: { type: "boolean" },
} as const;

export const v2CoverageCreateSchema = {
  $id: "V2CoverageCreate",
  type: "object",
  additionalProperties: false,
  required: ["payer_ref", "member_id", "priority"],
  properties: editable,
} as const;

export const v2CoverageUpdateSchema = {
  $id: "V2CoverageUpdate",
  type: "object",
  additionalProperties: false,
  minProperties: 1,
  properties: editable,
} as const;

export const v2CoverageSchema = replyObject(
  {
    id: idText,
    patient_id: idText,
    payer: replyObject(
      {
        id: described(idTextOrNull, "The payer's id in GET /v2/payers; null for a v1 card naming a payer outside it"),
        payer_id: textOrNull,
        name: plainText,
      },
      { title: "CoveragePayer" },
    ),
    member_id: plainText,
    group_number: textOrNull,
    plan_name: textOrNull,
    subscriber: replyObject(
      {
        relationship: oneOfStrings(SUBSCRIBER_RELATIONSHIPS),
        first_name: textOrNull,
        last_name: textOrNull,
        date_of_birth: dateOrNull,
      },
      { title: "CoverageSubscriber" },
    ),
    plan_start_date: dateOrNull,
    plan_end_date: dateOrNull,
    priority: described(orNull(oneOfStrings(COVERAGE_PRIORITIES)), "null for a v1 card that was never given one"),
    active: boolean,
    created_at: dateTime,
    updated_at: dateTime,
  },
  {
    title: "Coverage",
    examples: [
      {
        id: "21",
        patient_id: "41",
        payer: { id: "7", payer_id: "60054", name: "Aetna" },
        member_id: "W123456789",
        group_number: "0123456-010",
        plan_name: "Open Access Managed Choice",
        subscriber: { relationship: "spouse", first_name: "Jordan", last_name: "Reyes", date_of_birth: "1978-02-11" },
        plan_start_date: "2027-01-01",
        plan_end_date: null,
        priority: "primary",
        active: true,
        created_at: "2027-01-05T15:00:00.000Z",
        updated_at: "2027-01-05T15:00:00.000Z",
      },
    ],
  },
);

export const V2_COVERAGE_FIELDS: FieldNames = Object.freeze({
  payerRef: "payer_ref",
  memberId: "member_id",
  groupNumber: "group_number",
  planName: "plan_name",
  subscriber: "subscriber",
  relationship: "relationship",
  firstName: "first_name",
  lastName: "last_name",
  dateOfBirth: "date_of_birth",
  planStartDate: "plan_start_date",
  planEndDate: "plan_end_date",
  priority: "priority",
  active: "active",
});

export const v2CoverageView = (c: InsuranceCard) => ({
  id: String(c.id),
  patient_id: String(c.patientId),
  payer: {
    id: c.payer.payerRegId === null ? null : String(c.payer.payerRegId),
    payer_id: c.payer.payerId,
    name: c.payer.name,
  },
  member_id: c.insuranceNumber,
  group_number: c.groupNumber,
  plan_name: c.planName,
  subscriber: {
    relationship: c.subscriber.relationship,
    first_name: c.subscriber.firstName,
    last_name: c.subscriber.lastName,
    date_of_birth: c.subscriber.dateOfBirth,
  },
  plan_start_date: c.planStartDate,
  plan_end_date: c.planEndDate,
  priority: c.priority,
  active: c.active,
  created_at: c.createdAt.toISOString(),
  updated_at: c.updatedAt.toISOString(),
});

type Editable = Partial<Static<typeof v2CoverageUpdateSchema>>;

/** The body in domain terms; omitted fields stay undefined (a PATCH keeps them). */
export function coverageChangesFromBody(b: Editable): CoverageChanges {
  const out: Record<keyof CoverageChanges, unknown> = {
    payerRef: b.payer_ref === undefined ? undefined : Number(b.payer_ref),
    memberId: b.member_id,
    groupNumber: b.group_number,
    planName: b.plan_name,
    subscriber:
      b.subscriber == null
        ? b.subscriber
        : {
            relationship: b.subscriber.relationship,
            firstName: b.subscriber.first_name,
            lastName: b.subscriber.last_name,
            dateOfBirth: b.subscriber.date_of_birth,
          },
    planStartDate: b.plan_start_date,
    planEndDate: b.plan_end_date,
    priority: b.priority,
    active: b.active,
  };
  return Object.fromEntries(Object.entries(out).filter(([, v]) => v !== undefined)) as CoverageChanges;
}
