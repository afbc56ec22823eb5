import { organisationEvent } from "./organisation-events.js";
import { organisationError } from "./organisation-errors.js";
import { ensureOrganisation } from "./ensure-organisation.js";
import { assertWithinCallerClinics } from "../auth/clinic-access.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { DomainError, type ValidationIssue } from "../kernel/domain-error.js";
import { sortedPage, toPageWindow } from "../kernel/paging.js";
import { foldForMatch, searchTerms } from "../kernel/text-match.js";
import type { Storage } from "../kernel/storage.js";
import type { OrganisationServiceRepositories } from "./organisation-service-repositories.js";
import type { Provider } from "./organisation.js";
import { providerNotFound } from "./organisation-errors.js";
import {
  assertValidProvider,
  PROVIDER_LIMITS,
  type ProviderChanges,
  type ProviderDraft,
  type ProviderListQuery,
} from "./provider-rules.js";

const notFound = providerNotFound;
const PROVIDERS = "providers";
const duplicate = (field: "userId" | "npi", existingId: number) =>
  organisationError(
    "DUPLICATE_PROVIDER",
    field === "npi"
      ? "Another provider of the organisation has this NPI"
      : "Another provider of the organisation has this user id",
    { existing_provider_id: existingId, field: field === "npi" ? "npi" : "user_id" },
  );
const inIdOrder = (ids: readonly number[]) => [...ids].sort((a, b) => a - b);
const searchText = (p: Provider) => foldForMatch([p.firstName, p.lastName, p.npi ?? "", ...p.credentials].join(" "));

/** The organisation's treating providers (v2 directory); v1's provider list and booking read the same rows. */
export class ProviderService {
  constructor(private readonly deps: { storage: Storage<OrganisationServiceRepositories>; clock: Clock }) {}

  async create(principal: Principal, draft: ProviderDraft): Promise<Provider> {
    assertValidProvider(draft, true);
    assertWithinCallerClinics(principal, draft.clinicIds ?? [], PROVIDERS);
    const now = this.deps.clock.now();
    const organisationId = principal.organisationId;
    return this.deps.storage.transaction(async (tx) => {
      await ensureOrganisation(tx, organisationId, now);
      const provider: Omit<Provider, "id"> = {
        organisationId,
        userId: draft.userId,
        firstName: draft.firstName.trim(),
        lastName: draft.lastName.trim(),
        npi: draft.npi ?? null,
        supervisingUserId: draft.supervisingUserId ?? null,
        clinicIds: inIdOrder(draft.clinicIds ?? []),
        credentials: [...(draft.credentials ?? [])],
        licenceNumber: draft.licenceNumber?.trim() || null,
        licenceState: draft.licenceState ?? null,
        specialities: [...(draft.specialities ?? [])],
        requiresCosign: draft.requiresCosign ?? false,
        active: true,
        createdAt: now,
        updatedAt: now,
      };
      await assertReferences(tx, provider);
      const result = await tx.organisations.insertProvider(provider);
      if (!result.created) throw duplicate(result.field, result.existingId);
      await tx.outbox.append(
        organisationEvent(
          "provider.created",
          { organisation_id: organisationId, provider_id: result.provider.id },
          now,
        ),
      );
      return result.provider;
    });
  }

  async get(principal: Principal, id: number): Promise<Provider> {
    const found = await this.deps.storage.repositories.organisations.findProviderById(principal.organisationId, id);
    if (!found) throw notFound(id);
    return found;
  }

  /** The provider with this user id (v1's doctor_id), or PROVIDER_NOT_FOUND naming doctor_id. */
  async getByUserId(principal: Principal, userId: number): Promise<Provider> {
    const found = await this.deps.storage.repositories.organisations.findProvider(principal.organisationId, userId);
    if (!found) throw organisationError("PROVIDER_NOT_FOUND", "Doctor not found", { doctor_id: userId });
    return found;
  }

  /** Partial update: omitted fields keep their values, null clears an optional one, lists given replace the list. */
  async update(principal: Principal, id: number, changes: ProviderChanges): Promise<Provider> {
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      const current = await tx.organisations.findProviderById(principal.organisationId, id);
      if (!current) throw notFound(id);
      assertValidProvider(changes, false, current);
      // The directory reads organisation-wide, but a restricted caller changes only providers of its own clinics.
      assertWithinCallerClinics(principal, current.clinicIds, PROVIDERS);
      if (changes.clinicIds) assertWithinCallerClinics(principal, changes.clinicIds, PROVIDERS);
      const next: Provider = {
        ...current,
        firstName: changes.firstName?.trim() ?? current.firstName,
        lastName: changes.lastName?.trim() ?? current.lastName,
        npi: changes.npi === undefined ? current.npi : changes.npi,
        supervisingUserId:
          changes.supervisingUserId === undefined ? current.supervisingUserId : changes.supervisingUserId,
        clinicIds: changes.clinicIds ? inIdOrder(changes.clinicIds) : current.clinicIds,
        credentials: changes.credentials ? [...changes.credentials] : current.credentials,
        licenceNumber:
          changes.licenceNumber === undefined ? current.licenceNumber : changes.licenceNumber?.trim() || null,
        licenceState: changes.licenceState === undefined ? current.licenceState : changes.licenceState,
        specialities: changes.specialities ? [...changes.specialities] : current.specialities,
        requiresCosign: changes.requiresCosign ?? current.requiresCosign,
        active: changes.active ?? current.active,
        updatedAt: now,
      };
      await assertReferences(tx, next);
      const result = await tx.organisations.updateProvider(next);
      if (!result.updated) throw duplicate(result.field, result.existingId);
      await tx.outbox.append(
        organisationEvent("provider.updated", { organisation_id: principal.organisationId, provider_id: id }, now),
      );
      return next;
    });
  }

  /** Filtered, ordered and paged here: an organisation has tens to hundreds of providers. */
  async list(
    principal: Principal,
    query: ProviderListQuery,
  ): Promise<{ providers: Provider[]; total: number; page: number; perPage: number }> {
    const { page, size, offset } = toPageWindow(query.page, query.perPage, {
      defaultSize: PROVIDER_LIMITS.defaultPerPage,
      maxSize: PROVIDER_LIMITS.maxPerPage,
    });
    const status = query.status ?? "active";
    const terms = searchTerms(query.search ?? "");
    const sort = query.sort ?? "last_name";
    const matching = (await this.deps.storage.repositories.organisations.listProviders(principal.organisationId))
      .filter((p) => status === "all" || p.active === (status === "active"))
      .filter((p) => query.clinicId === undefined || p.clinicIds.includes(query.clinicId))
      .filter(
        (p) =>
          query.speciality === undefined ||
          p.specialities.some((s) => foldForMatch(s) === foldForMatch(query.speciality as string)),
      )
      .filter((p) => terms.every((t) => searchText(p).includes(t)));
    const key = (p: Provider) =>
      sort === "last_name"
        ? foldForMatch(p.lastName)
        : sort === "first_name"
          ? foldForMatch(p.firstName)
          : (sort === "created_at" ? p.createdAt : p.updatedAt).toISOString();
    const found = sortedPage(matching, key, query.order ?? "asc", { offset, limit: size });
    return { providers: found.rows, total: found.total, page, perPage: size };
  }
}

/** The clinics are the organisation's and the supervisor is one of its providers; each unknown one is named. */
async function assertReferences(tx: OrganisationServiceRepositories, p: Omit<Provider, "id">): Promise<void> {
  const issues: ValidationIssue[] = [];
  for (const [i, clinicId] of p.clinicIds.entries())
    if (!(await tx.organisations.findClinic(p.organisationId, clinicId)))
      issues.push({ field: `clinicIds.${i}`, reason: "is not a clinic of this organisation", value: clinicId });
  if (p.supervisingUserId !== null && !(await tx.organisations.findProvider(p.organisationId, p.supervisingUserId)))
    issues.push({
      field: "supervisingUserId",
      reason: "is not a provider of this organisation",
      value: p.supervisingUserId,
    });
  if (issues.length) throw DomainError.validation(issues);
}
