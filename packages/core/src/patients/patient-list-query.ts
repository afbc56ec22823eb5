import type { Patch } from "../kernel/patch.js";
import { DomainError } from "../kernel/domain-error.js";
import { PATIENT_SORT_FIELDS, type PatientListCriteria, type PatientSortField } from "./patient-repository.js";
import type { PatientStatus } from "./patient.js";
import { searchTerms } from "../kernel/text-match.js";

/** Bounds of the v2 patients list (spec 4.6, 8). */
export const PATIENT_LIST_LIMITS = Object.freeze({
  defaultPerPage: 25,
  minPerPage: 1,
  maxPerPage: 100,
  maxSearchLength: 100,
});
export const PATIENT_LIST_STATUSES = ["active", "inactive", "all"] as const;
export const PATIENT_LIST_ORDERS = ["asc", "desc"] as const;

/** The list request in domain terms; strings for the time bounds are ISO 8601 dates or date-times. */
/** A list request; an absent or undefined field takes its default. */
export type PatientListQuery = Patch<{
  page: number;
  perPage: number;
  search: string;
  createdAfter: string;
  createdBefore: string;
  updatedAfter: string;
  updatedBefore: string;
  sort: PatientSortField;
  order: "asc" | "desc";
  status: PatientStatus | "all";
}>;

const DATE_ONLY = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:\d{2})$/;

const invalid = DomainError.invalidParameter;

/**
 * An ISO 8601 date (midnight UTC of that day) or a date-time with a zone.
 * Zoneless date-times are refused: the instant would depend on the server.
 */
export function parseTimeBound(parameter: string, value: string): Date {
  const shapeOk = DATE_ONLY.test(value) || DATE_TIME.test(value);
  const date = shapeOk ? new Date(DATE_ONLY.test(value) ? `${value}T00:00:00Z` : value) : new Date(Number.NaN);
  const roundTrips = DATE_ONLY.test(value)
    ? !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === value
    : !Number.isNaN(date.getTime());
  if (!shapeOk || !roundTrips)
    throw invalid(parameter, value, "must be an ISO 8601 date (YYYY-MM-DD) or date-time with a time zone");
  return date;
}

function checkRange(
  fromName: string,
  fromRaw: string | undefined,
  from: Date | undefined,
  toName: string,
  to: Date | undefined,
): void {
  if (from && to && from.getTime() > to.getTime()) throw invalid(fromName, fromRaw, `must not be later than ${toName}`);
}

/** Turns a list request into store criteria, applying defaults and refusing anything out of bounds (INVALID_PARAMETER). */
export function toPatientListCriteria(organisationId: number, q: PatientListQuery): PatientListCriteria {
  const L = PATIENT_LIST_LIMITS;
  const page = q.page ?? 1;
  const perPage = q.perPage ?? L.defaultPerPage;
  if (!Number.isInteger(page) || page < 1) throw invalid("page", q.page, "must be an integer of at least 1");
  if (!Number.isInteger(perPage) || perPage < L.minPerPage || perPage > L.maxPerPage) {
    throw invalid("per_page", q.perPage, `must be between ${L.minPerPage} and ${L.maxPerPage}`);
  }
  if (q.sort !== undefined && !PATIENT_SORT_FIELDS.includes(q.sort))
    throw invalid("sort", q.sort, `must be one of ${PATIENT_SORT_FIELDS.join(", ")}`);
  if (q.order !== undefined && !PATIENT_LIST_ORDERS.includes(q.order))
    throw invalid("order", q.order, "must be asc or desc");
  if (q.status !== undefined && !PATIENT_LIST_STATUSES.includes(q.status))
    throw invalid("status", q.status, "must be active, inactive or all");
  if (q.search !== undefined && q.search.length > L.maxSearchLength)
    throw invalid("search", q.search, `must be at most ${L.maxSearchLength} characters`);

  const createdFrom = q.createdAfter !== undefined ? parseTimeBound("created_after", q.createdAfter) : undefined;
  const createdBefore = q.createdBefore !== undefined ? parseTimeBound("created_before", q.createdBefore) : undefined;
  const updatedFrom = q.updatedAfter !== undefined ? parseTimeBound("updated_after", q.updatedAfter) : undefined;
  const updatedBefore = q.updatedBefore !== undefined ? parseTimeBound("updated_before", q.updatedBefore) : undefined;
  checkRange("created_after", q.createdAfter, createdFrom, "created_before", createdBefore);
  checkRange("updated_after", q.updatedAfter, updatedFrom, "updated_before", updatedBefore);

  return {
    organisationId,
    searchTerms: q.search ? searchTerms(q.search) : [],
    createdFrom,
    createdBefore,
    updatedFrom,
    updatedBefore,
    status: q.status ?? "active",
    sort: q.sort ?? "created_at",
    order: q.order ?? "desc",
    limit: perPage,
    offset: (page - 1) * perPage,
  };
}
