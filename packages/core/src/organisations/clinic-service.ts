import { organisationEvent } from "./organisation-events.js";
import { systemError } from "../kernel/system-errors.js";
import { organisationError } from "./organisation-errors.js";
import { ensureOrganisation } from "./ensure-organisation.js";
import type { Patch } from "../kernel/patch.js";
import { clinicAccess } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { sortedPage, toPageWindow } from "../kernel/paging.js";
import { foldForMatch, searchTerms } from "../kernel/text-match.js";
import type { Storage } from "../kernel/storage.js";
import type { OrganisationServiceRepositories } from "./organisation-service-repositories.js";
import {
  assertValidClinic,
  CLINIC_LIMITS,
  type ClinicChanges,
  type ClinicDraft,
  type ClinicListQuery,
  clinicSearchText,
  taxIdDigits,
} from "./clinic-rules.js";
import { type Clinic, type ClinicAddress, EMPTY_CLINIC_ADDRESS } from "./organisation.js";
import { clinicNotFound } from "./organisation-errors.js";
import { findReachableClinic } from "./reachable-clinic.js";

const notFound = clinicNotFound;
const duplicateName = (existingId: number) =>
  organisationError("DUPLICATE_CLINIC", "The organisation already has a clinic with this name", {
    existing_clinic_id: existingId,
  });

const trimmed = (v: string | null | undefined) => (v === undefined ? undefined : v?.trim() || null);

function mergeAddress(current: ClinicAddress, sent: Patch<ClinicAddress> | null | undefined): ClinicAddress {
  if (sent === undefined) return current;
  if (sent === null) return { ...EMPTY_CLINIC_ADDRESS };
  const out = { ...current };
  for (const key of Object.keys(EMPTY_CLINIC_ADDRESS) as Array<keyof ClinicAddress>) {
    const v = trimmed(sent[key]);
    if (v !== undefined) out[key] = v;
  }
  return out;
}

/** The organisation's clinics (v2 directory): create, read, change, list; v1 reads the same rows. */
export class ClinicService {
  constructor(private readonly deps: { storage: Storage<OrganisationServiceRepositories>; clock: Clock }) {}

  /** A token restricted to clinics cannot add one: the new clinic would be outside its own restriction. */
  async create(principal: Principal, draft: ClinicDraft): Promise<Clinic> {
    if (clinicAccess(principal).only)
      throw systemError(
        "INSUFFICIENT_PERMISSIONS",
        "A caller restricted to clinics (clinic_id_list) cannot add clinics to the organisation",
        { allowed_clinic_ids: [...principal.clinicIds] },
      );
    assertValidClinic(draft, true);
    const now = this.deps.clock.now();
    const organisationId = principal.organisationId;
    return this.deps.storage.transaction(async (tx) => {
      await ensureOrganisation(tx, organisationId, now);
      const result = await tx.organisations.insertClinic({
        organisationId,
        name: draft.name.trim(),
        timeZone: draft.timeZone,
        allowDoubleBooking: draft.allowDoubleBooking ?? false,
        visitLimitWarningOnly: draft.visitLimitWarningOnly ?? false,
        address: mergeAddress(EMPTY_CLINIC_ADDRESS, draft.address),
        phone: trimmed(draft.phone) ?? null,
        placeOfService: draft.placeOfService ?? "11",
        npi: draft.npi ?? null,
        taxId: draft.taxId ? (taxIdDigits(draft.taxId) ?? null) : null,
        active: true,
        createdAt: now,
        updatedAt: now,
      });
      if (!result.created) throw duplicateName(result.existingId);
      await tx.outbox.append(
        organisationEvent("clinic.created", { organisation_id: organisationId, clinic_id: result.clinic.id }, now),
      );
      return result.clinic;
    });
  }

  async get(principal: Principal, id: number): Promise<Clinic> {
    const found = await findReachableClinic(this.deps.storage.repositories, principal, id);
    if (!found) throw notFound(id);
    return found;
  }

  /** Partial update: omitted fields keep their values, null clears an optional one; address fields merge. */
  async update(principal: Principal, id: number, changes: ClinicChanges): Promise<Clinic> {
    assertValidClinic(changes, false);
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const current = await findReachableClinic(tx, principal, id);
      if (!current) throw notFound(id);
      const next: Clinic = {
        ...current,
        name: changes.name?.trim() ?? current.name,
        timeZone: changes.timeZone ?? current.timeZone,
        allowDoubleBooking: changes.allowDoubleBooking ?? current.allowDoubleBooking,
        visitLimitWarningOnly: changes.visitLimitWarningOnly ?? current.visitLimitWarningOnly,
        address: mergeAddress(current.address, changes.address),
        phone: changes.phone === undefined ? current.phone : (trimmed(changes.phone) ?? null),
        placeOfService: changes.placeOfService ?? current.placeOfService,
        npi: changes.npi === undefined ? current.npi : changes.npi,
        taxId:
          changes.taxId === undefined
            ? current.taxId
            : changes.taxId === null
              ? null
              : (taxIdDigits(changes.taxId) ?? null),
        active: changes.active ?? current.active,
        updatedAt: now,
      };
      await writeChange(tx, current, next, now);
      return next;
    });
  }

  /** The clinics of the organisation, filtered, ordered and paged here: an organisation has tens of clinics, not thousands. */
  async list(
    principal: Principal,
    query: ClinicListQuery,
  ): Promise<{ clinics: Clinic[]; total: number; page: number; perPage: number }> {
    const { page, size, offset } = toPageWindow(query.page, query.perPage, {
      defaultSize: CLINIC_LIMITS.defaultPerPage,
      maxSize: CLINIC_LIMITS.maxPerPage,
    });
    const status = query.status ?? "active";
    const terms = searchTerms(query.search ?? "");
    const sort = query.sort ?? "name";
    const access = clinicAccess(principal);
    const matching = (await this.deps.storage.repositories.organisations.listClinics(principal.organisationId))
      .filter((c) => access.canSee(c.id))
      .filter((c) => status === "all" || c.active === (status === "active"))
      .filter((c) => terms.every((t) => clinicSearchText(c).includes(t)));
    const key = (c: Clinic) =>
      sort === "name" ? foldForMatch(c.name) : (sort === "created_at" ? c.createdAt : c.updatedAt).toISOString();
    const found = sortedPage(matching, key, query.order ?? "asc", { offset, limit: size });
    return { clinics: found.rows, total: found.total, page, perPage: size };
  }
}

/** Writes a changed clinic and its clinic.updated event; a name held by another clinic is refused. */
export async function writeChange(
  tx: OrganisationServiceRepositories,
  current: Clinic,
  next: Clinic,
  now: Date,
): Promise<void> {
  const result = await tx.organisations.updateClinic(next);
  if (!result.updated) throw duplicateName(result.existingId);
  await tx.outbox.append(
    organisationEvent("clinic.updated", { organisation_id: current.organisationId, clinic_id: current.id }, now),
  );
}
