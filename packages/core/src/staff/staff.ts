import type { ValidationIssue } from "../kernel/domain-error.js";
import { DomainError } from "../kernel/domain-error.js";
import type { Patch } from "../kernel/patch.js";
import { foldForMatch } from "../kernel/text-match.js";

/** What a staff member does at the practice; access to the API is the business of API clients and scopes. */
export const STAFF_ROLES = ["front_desk", "scheduler", "biller", "office_manager", "admin", "aide"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
export const STAFF_STATUSES = ["active", "inactive"] as const;
export type StaffStatus = (typeof STAFF_STATUSES)[number];
export const STAFF_SORT_FIELDS = ["last_name", "first_name", "created_at", "updated_at"] as const;
export type StaffSortField = (typeof STAFF_SORT_FIELDS)[number];

export const STAFF_LIMITS = Object.freeze({
  nameMax: 100,
  emailMax: 254,
  phoneMax: 30,
  maxRoles: STAFF_ROLES.length,
  maxClinics: 100,
  defaultPerPage: 20,
  maxPerPage: 100,
  maxSearchLength: 200,
});

/**
 * A person who works at the practice without treating patients (front desk, billing, administration).
 * Deactivating keeps the record and its history; the email stays theirs within the organisation.
 */
export interface StaffMember {
  id: number;
  organisationId: number;
  firstName: string;
  lastName: string;
  /** Unique per organisation, compared case-insensitively. */
  email: string;
  phone: string | null;
  roles: StaffRole[];
  /** The clinics they work at; empty: none in particular. */
  clinicIds: number[];
  status: StaffStatus;
  createdAt: Date;
  updatedAt: Date;
  deactivatedAt: Date | null;
}

/** A new member as a client sends it; the rules name every missing or bad field. */
export interface StaffDraft {
  firstName: string;
  lastName: string;
  email: string;
  phone?: string | null | undefined;
  roles: readonly string[];
  clinicIds?: readonly number[] | undefined;
}

export type StaffChanges = Patch<{
  firstName: string;
  lastName: string;
  email: string;
  phone: string | null;
  roles: readonly string[];
  clinicIds: readonly number[];
  status: StaffStatus;
}>;

export type StaffListQuery = Patch<{
  page: number;
  perPage: number;
  search: string;
  status: StaffStatus | "all";
  role: StaffRole;
  clinicId: number;
  sort: StaffSortField;
  order: "asc" | "desc";
}>;

/** The key the per-organisation email uniqueness is decided on. */
export const staffEmailKey = (email: string) => email.trim().toLowerCase();

/** The folded text `search` matches: names and email. */
export const staffSearchText = (m: Pick<StaffMember, "firstName" | "lastName" | "email">) =>
  foldForMatch([m.firstName, m.lastName, m.email].join(" "));

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

function checkText(issues: ValidationIssue[], field: string, value: unknown, max: number, required: boolean) {
  if (value === undefined) {
    if (required) issues.push({ field, reason: "is required" });
    return;
  }
  if (typeof value !== "string" || value.trim() === "" || value.trim().length > max)
    issues.push({ field, reason: `must be 1 to ${max} characters`, value });
}

/**
 * The rules of a new member (`creating`) or a change: names and email present and bounded, the email
 * well formed, roles known and not repeated (at least one), clinic ids positive and not repeated.
 * Whether the clinics exist is the service's check (it needs the store).
 */
export function assertValidStaff(input: StaffDraft | StaffChanges, creating: boolean): void {
  const issues: ValidationIssue[] = [];
  checkText(issues, "firstName", input.firstName, STAFF_LIMITS.nameMax, creating);
  checkText(issues, "lastName", input.lastName, STAFF_LIMITS.nameMax, creating);
  checkText(issues, "email", input.email, STAFF_LIMITS.emailMax, creating);
  if (typeof input.email === "string" && input.email.trim() !== "" && !EMAIL.test(input.email.trim()))
    issues.push({ field: "email", reason: "must be an email address", value: input.email });
  if (input.phone !== undefined && input.phone !== null)
    checkText(issues, "phone", input.phone, STAFF_LIMITS.phoneMax, false);
  if (input.roles !== undefined || creating) {
    const roles = input.roles ?? [];
    if (!Array.isArray(roles) || roles.length === 0)
      issues.push({ field: "roles", reason: `must name at least one of ${STAFF_ROLES.join(", ")}` });
    else
      roles.forEach((role, i) => {
        if (!(STAFF_ROLES as readonly string[]).includes(role))
          issues.push({ field: `roles.${i}`, reason: `must be one of ${STAFF_ROLES.join(", ")}`, value: role });
        else if (roles.indexOf(role) !== i)
          issues.push({ field: `roles.${i}`, reason: "is listed twice", value: role });
      });
  }
  (input.clinicIds ?? []).forEach((id, i) => {
    if (!Number.isSafeInteger(id) || id < 1)
      issues.push({ field: `clinicIds.${i}`, reason: "must be a clinic id", value: id });
    else if ((input.clinicIds ?? []).indexOf(id) !== i)
      issues.push({ field: `clinicIds.${i}`, reason: "is listed twice", value: id });
  });
  if ("status" in input && input.status !== undefined && !(STAFF_STATUSES as readonly string[]).includes(input.status))
    issues.push({ field: "status", reason: `must be one of ${STAFF_STATUSES.join(", ")}`, value: input.status });
  if (issues.length) throw DomainError.validation(issues);
}
