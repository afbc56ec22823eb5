import { staffEvent } from "./staff-events.js";
import { staffError } from "./staff-errors.js";
import { ensureOrganisation } from "../organisations/ensure-organisation.js";
import { assertWithinCallerClinics } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { searchTerms } from "../kernel/text-match.js";
import type { Storage } from "../kernel/storage.js";
import type { StaffServiceRepositories } from "./staff-service-repositories.js";
import { toPageWindow } from "../kernel/paging.js";
import {
  assertValidStaff,
  STAFF_LIMITS,
  type StaffChanges,
  type StaffDraft,
  type StaffListQuery,
  type StaffMember,
  type StaffRole,
} from "./staff.js";

const STAFF = "staff members";
const notFound = (id: unknown) => staffError("STAFF_NOT_FOUND", "Staff member not found", { staff_id: id });
const duplicateEmail = (existingId: number) =>
  staffError("DUPLICATE_STAFF_EMAIL", "The organisation already has a staff member with this email", {
    existing_staff_id: existingId,
  });

/** The practice's staff: front desk, billing and administration, per organisation. */
export class StaffService {
  constructor(private readonly deps: { storage: Storage<StaffServiceRepositories>; clock: Clock }) {}

  async create(principal: Principal, draft: StaffDraft): Promise<StaffMember> {
    assertValidStaff(draft, true);
    assertWithinCallerClinics(principal, draft.clinicIds ?? [], STAFF);
    const now = this.deps.clock.now();
    const organisationId = principal.organisationId;
    return this.deps.storage.transaction(async (tx) => {
      // Organisations appear with their first write (as for every other resource).
      await ensureOrganisation(tx, organisationId, now);
      const clinicIds = inIdOrder(draft.clinicIds ?? []);
      await assertClinicsExist(tx, organisationId, clinicIds);
      const result = await tx.staff.insert({
        organisationId,
        firstName: draft.firstName.trim(),
        lastName: draft.lastName.trim(),
        email: draft.email.trim(),
        phone: draft.phone?.trim() || null,
        roles: [...draft.roles] as StaffRole[],
        clinicIds,
        status: "active",
        createdAt: now,
        updatedAt: now,
        deactivatedAt: null,
      });
      if (!result.created) throw duplicateEmail(result.existingId);
      await tx.outbox.append(
        staffEvent("staff.created", { organisation_id: organisationId, staff_id: result.member.id }, now),
      );
      return result.member;
    });
  }

  async get(principal: Principal, id: number): Promise<StaffMember> {
    const found = await this.deps.storage.repositories.staff.findById(principal.organisationId, id);
    if (!found) throw notFound(id);
    return found;
  }

  /** Partial update: omitted fields keep their values; roles and clinic ids given replace the whole list. */
  async update(principal: Principal, id: number, changes: StaffChanges): Promise<StaffMember> {
    assertValidStaff(changes, false);
    if (changes.status === "inactive")
      // One way to deactivate, so the deactivation time and event are always written.
      throw DomainError.validation([
        { field: "status", reason: "is set to inactive by DELETE (deactivation)", value: "inactive" },
      ]);
    return this.change(principal, id, (current, now) => ({
      ...current,
      firstName: changes.firstName?.trim() ?? current.firstName,
      lastName: changes.lastName?.trim() ?? current.lastName,
      email: changes.email?.trim() ?? current.email,
      phone: changes.phone === undefined ? current.phone : changes.phone?.trim() || null,
      roles: changes.roles ? ([...changes.roles] as StaffRole[]) : current.roles,
      clinicIds: changes.clinicIds ? inIdOrder(changes.clinicIds) : current.clinicIds,
      status: changes.status ?? current.status,
      deactivatedAt: changes.status === "active" ? null : current.deactivatedAt,
      updatedAt: now,
    }));
  }

  /** DELETE: the member becomes inactive; the record, its email and history stay. Repeating it changes nothing. */
  async deactivate(principal: Principal, id: number): Promise<StaffMember> {
    return this.change(principal, id, (current, now) =>
      current.status === "inactive" ? current : { ...current, status: "inactive", deactivatedAt: now, updatedAt: now },
    );
  }

  async list(
    principal: Principal,
    query: StaffListQuery,
  ): Promise<{ members: StaffMember[]; total: number; page: number; perPage: number }> {
    const { page, size, limit, offset } = toPageWindow(query.page, query.perPage, {
      defaultSize: STAFF_LIMITS.defaultPerPage,
      maxSize: STAFF_LIMITS.maxPerPage,
    });
    const status = query.status ?? "active";
    const found = await this.deps.storage.repositories.staff.list(principal.organisationId, {
      terms: searchTerms(query.search ?? ""),
      status: status === "all" ? undefined : status,
      role: query.role,
      clinicId: query.clinicId,
      sort: query.sort ?? "last_name",
      order: query.order ?? "asc",
      limit,
      offset,
    });
    return { ...found, page, perPage: size };
  }

  /** Reads, changes and writes one member in a transaction; the event says what happened, when anything did. */
  private async change(
    principal: Principal,
    id: number,
    next: (current: StaffMember, now: Date) => StaffMember,
  ): Promise<StaffMember> {
    const now = this.deps.clock.now();
    const organisationId = principal.organisationId;
    return this.deps.storage.transaction(async (tx) => {
      const current = await tx.staff.findById(organisationId, id);
      if (!current) throw notFound(id);
      // The staff list reads organisation-wide, but a restricted caller changes only members of its own clinics.
      assertWithinCallerClinics(principal, current.clinicIds, STAFF);
      const updated = next(current, now);
      if (updated.clinicIds !== current.clinicIds) assertWithinCallerClinics(principal, updated.clinicIds, STAFF);
      if (updated === current) return current;
      if (updated.clinicIds !== current.clinicIds) await assertClinicsExist(tx, organisationId, updated.clinicIds);
      const result = await tx.staff.update(updated);
      if (!result.updated) throw duplicateEmail(result.existingId);
      const deactivated = current.status === "active" && updated.status === "inactive";
      await tx.outbox.append(
        staffEvent(
          deactivated ? "staff.deactivated" : "staff.updated",
          { organisation_id: organisationId, staff_id: id },
          now,
        ),
      );
      return updated;
    });
  }
}

const inIdOrder = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);

/** Every clinic id names a clinic of the organisation; the unknown ones are named (clinicIds.<i>). */
async function assertClinicsExist(tx: StaffServiceRepositories, organisationId: number, clinicIds: readonly number[]) {
  const issues: ValidationIssue[] = [];
  for (const [i, clinicId] of clinicIds.entries())
    if (!(await tx.organisations.findClinic(organisationId, clinicId)))
      issues.push({ field: `clinicIds.${i}`, reason: "is not a clinic of this organisation", value: clinicId });
  if (issues.length) throw DomainError.validation(issues);
}
