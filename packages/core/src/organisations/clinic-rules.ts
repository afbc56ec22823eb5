import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import type { Patch } from "../kernel/patch.js";
import { foldForMatch } from "../kernel/text-match.js";
import { isValidNpi } from "./npi.js";
import type { Clinic, ClinicAddress } from "./organisation.js";

export const CLINIC_LIMITS = Object.freeze({
  nameMax: 200,
  phoneMax: 30,
  addressLineMax: 200,
  cityMax: 100,
  defaultPerPage: 20,
  maxPerPage: 100,
  maxSearchLength: 200,
});
export const CLINIC_SORT_FIELDS = ["name", "created_at", "updated_at"] as const;
export type ClinicSortField = (typeof CLINIC_SORT_FIELDS)[number];

/** A new clinic as a client sends it; what it leaves out takes the defaults (office, active, no address). */
export interface ClinicDraft {
  name: string;
  timeZone: string;
  address?: Patch<ClinicAddress> | null | undefined;
  phone?: string | null | undefined;
  placeOfService?: string | undefined;
  npi?: string | null | undefined;
  taxId?: string | null | undefined;
  allowDoubleBooking?: boolean | undefined;
  visitLimitWarningOnly?: boolean | undefined;
}

export type ClinicChanges = Patch<
  Omit<ClinicDraft, "address"> & { address: Patch<ClinicAddress> | null; active: boolean }
>;

export type ClinicListQuery = Patch<{
  page: number;
  perPage: number;
  search: string;
  status: "active" | "inactive" | "all";
  sort: ClinicSortField;
  order: "asc" | "desc";
}>;

/** Whether the runtime knows `zone` as an IANA time zone (what the clinic's local times are read in). */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: zone });
    return zone.length > 0;
  } catch {
    return false;
  }
}

/** The employer identification number's 9 digits ("12-3456789" or "123456789"), or undefined. */
export function taxIdDigits(raw: string): string | undefined {
  return /^\d{2}-?\d{7}$/.test(raw.trim()) ? raw.trim().replace("-", "") : undefined;
}

const text = (issues: ValidationIssue[], field: string, value: unknown, max: number) => {
  if (value !== undefined && value !== null && (typeof value !== "string" || value.trim().length > max))
    issues.push({ field, reason: `must be at most ${max} characters`, value });
};

/** The rules of a new clinic (`creating`) or a change; each bad field is named. */
export function assertValidClinic(input: ClinicDraft | ClinicChanges, creating: boolean): void {
  const issues: ValidationIssue[] = [];
  if (input.name !== undefined || creating) {
    if (typeof input.name !== "string" || input.name.trim() === "" || input.name.trim().length > CLINIC_LIMITS.nameMax)
      issues.push({
        field: "name",
        reason: `must be 1 to ${CLINIC_LIMITS.nameMax} characters`,
        value: input.name ?? null,
      });
  }
  if (input.timeZone !== undefined || creating) {
    if (typeof input.timeZone !== "string" || !isTimeZone(input.timeZone))
      issues.push({
        field: "timeZone",
        reason: "must be an IANA time zone, e.g. America/Chicago",
        value: input.timeZone ?? null,
      });
  }
  text(issues, "phone", input.phone, CLINIC_LIMITS.phoneMax);
  if (input.placeOfService !== undefined && !/^\d{2}$/.test(input.placeOfService))
    issues.push({
      field: "placeOfService",
      reason: "must be a two-digit CMS place-of-service code",
      value: input.placeOfService,
    });
  if (input.npi !== undefined && input.npi !== null && !isValidNpi(input.npi))
    issues.push({ field: "npi", reason: "must be 10 digits with a valid check digit", value: input.npi });
  if (input.taxId !== undefined && input.taxId !== null && taxIdDigits(input.taxId) === undefined)
    issues.push({ field: "taxId", reason: "must be an EIN: 9 digits, as 12-3456789 or 123456789", value: input.taxId });
  const a = input.address;
  if (a) {
    text(issues, "address.line1", a.line1, CLINIC_LIMITS.addressLineMax);
    text(issues, "address.line2", a.line2, CLINIC_LIMITS.addressLineMax);
    text(issues, "address.city", a.city, CLINIC_LIMITS.cityMax);
    if (a.state !== undefined && a.state !== null && !/^[A-Z]{2}$/.test(a.state))
      issues.push({ field: "address.state", reason: "must be a 2-letter upper-case state code", value: a.state });
    if (a.postalCode !== undefined && a.postalCode !== null && !/^[A-Za-z0-9 -]{3,10}$/.test(a.postalCode))
      issues.push({
        field: "address.postalCode",
        reason: "must be 3 to 10 letters, digits, spaces or dashes",
        value: a.postalCode,
      });
    if (a.country !== undefined && a.country !== null && !/^[A-Z]{2}$/.test(a.country))
      issues.push({ field: "address.country", reason: "must be an ISO 3166-1 alpha-2 code", value: a.country });
  }
  if (issues.length) throw DomainError.validation(issues);
}

/** The folded text `search` matches: the name and the city. */
export const clinicSearchText = (c: Pick<Clinic, "name" | "address">) =>
  foldForMatch(`${c.name} ${c.address.city ?? ""}`);

/** A clinic from what `ensureClinic` was given: the defaults of a new clinic for the rest (times: now, unless given). */
export function clinicWithDefaults(
  input: Pick<Clinic, "organisationId" | "name" | "timeZone"> &
    Partial<Omit<Clinic, "id" | "organisationId" | "name" | "timeZone">>,
): Omit<Clinic, "id"> {
  const now = input.createdAt ?? new Date();
  return {
    organisationId: input.organisationId,
    name: input.name,
    timeZone: input.timeZone,
    allowDoubleBooking: input.allowDoubleBooking ?? false,
    visitLimitWarningOnly: input.visitLimitWarningOnly ?? false,
    address: input.address ?? { line1: null, line2: null, city: null, state: null, postalCode: null, country: null },
    phone: input.phone ?? null,
    placeOfService: input.placeOfService ?? "11",
    npi: input.npi ?? null,
    taxId: input.taxId ?? null,
    active: input.active ?? true,
    createdAt: now,
    updatedAt: input.updatedAt ?? now,
  };
}
