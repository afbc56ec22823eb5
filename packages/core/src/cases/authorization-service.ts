import { queueAuthorizationsChange } from "./authorization-watch.js";
import { caseEvent } from "./case-events.js";
import { caseError } from "./case-errors.js";
import type { Patch } from "../kernel/patch.js";
import type { Principal } from "../auth/principal.js";
import type { Clock } from "../kernel/clock.js";
import { coverageOfPatient } from "../coverages/patient-coverage.js";
import { searchTerms } from "../kernel/text-match.js";
import type { Storage } from "../kernel/storage.js";
import type { CaseServiceRepositories } from "./case-service-repositories.js";
import { toPageWindow } from "../kernel/paging.js";
import type { Authorization, AuthorizationChanges, AuthorizationDraft } from "./authorization.js";
import {
  assertConsistentAuthorization,
  assertValidAuthorizationInput,
  normaliseAuthorizationInput,
} from "./authorization-rules.js";
import { caseNotFound } from "./case-service.js";
import { serviceCaseId } from "../kernel/service-case-id.js";
import { authorizationViews, type AuthorizationView } from "./authorization-usage.js";

export type { AuthorizationView } from "./authorization-usage.js";

/** v2's path to an authorization: the case and the coverage it is granted under. */
export interface CoveragePath {
  caseId: number;
  coverageId: number;
}

const notFound = (id: unknown) =>
  caseError("AUTHORIZATION_NOT_FOUND", "Authorization not found", { authorization_id: id });

const eventData = (a: Authorization) => ({
  organisation_id: a.organisationId,
  service_case_id: serviceCaseId(a.caseId),
  patient_id: a.patientId,
  authorization_id: a.id,
});

/** Payer authorizations of visits on a case (create, read, update, delete, list by case, search). */
export class AuthorizationService {
  constructor(private readonly deps: { storage: Storage<CaseServiceRepositories>; clock: Clock }) {}

  private today(): string {
    return this.deps.clock.now().toISOString().slice(0, 10);
  }

  async create(principal: Principal, sent: AuthorizationDraft): Promise<AuthorizationView> {
    const draft = normaliseAuthorizationInput(sent);
    assertValidAuthorizationInput(draft, true);
    const orgId = principal.organisationId;
    const now = this.deps.clock.now();
    return this.deps.storage.transaction(async (tx) => {
      // The case's lock: a booking counting this case's visits waits for the new authorization, or comes before it.
      if (!(await tx.cases.lockForVisits(orgId, draft.caseId))) throw caseNotFound(serviceCaseId(draft.caseId));
      const c = await tx.cases.findById(orgId, draft.caseId);
      if (!c) throw caseNotFound(serviceCaseId(draft.caseId));
      const coverage =
        draft.coverageId == null ? undefined : await coverageOfPatient(tx, orgId, c.patientId, draft.coverageId);
      const record = {
        organisationId: orgId,
        caseId: c.id,
        patientId: c.patientId,
        coverageId: coverage?.id ?? null,
        referenceNumber: draft.referenceNumber.trim(),
        payerName: draft.payerName?.trim() || (coverage?.payer.name ?? ""),
        payerId: draft.payerId ?? coverage?.payer.payerId ?? null,
        planStartDate: draft.planStartDate ?? coverage?.planStartDate ?? null,
        planEndDate: draft.planEndDate ?? coverage?.planEndDate ?? null,
        effectiveStartDate: draft.effectiveStartDate,
        effectiveEndDate: draft.effectiveEndDate,
        authorizedVisits: draft.authorizedVisits,
        previouslyConsumedVisits: draft.previouslyConsumedVisits ?? 0,
        status: draft.status ?? "ACTIVE",
        icdCodes: draft.icdCodes ?? [],
        cptCodeAuthorizationDetails: draft.cptCodeAuthorizationDetails ?? [],
        createdAt: now,
        updatedAt: now,
      };
      assertConsistentAuthorization(record);
      const created = await tx.authorizations.insert(record);
      await tx.outbox.append(caseEvent("authorization.created", eventData(created), now));
      await queueAuthorizationsChange(
        tx,
        { organisationId: orgId, caseId: created.caseId, authorizationId: created.id },
        now,
      );
      return this.view(tx, created);
    });
  }

  async get(principal: Principal, id: number): Promise<AuthorizationView> {
    const r = this.deps.storage.repositories;
    const found =
      Number.isSafeInteger(id) && id > 0 ? await r.authorizations.findById(principal.organisationId, id) : undefined;
    if (!found) throw notFound(id);
    return this.view(r, found);
  }

  async listByCase(principal: Principal, caseId: number): Promise<AuthorizationView[]> {
    const r = this.deps.storage.repositories;
    if (!(await r.cases.findById(principal.organisationId, caseId))) throw caseNotFound(serviceCaseId(caseId));
    return this.views(r, await r.authorizations.listByCase(principal.organisationId, caseId));
  }

  /**
   * The case's authorizations granted under one of its patient's coverages (v2's path). CASE_NOT_FOUND or
   * COVERAGE_NOT_FOUND when the pair does not exist in the caller's organisation.
   */
  async listByCoverage(principal: Principal, caseId: number, coverageId: number): Promise<AuthorizationView[]> {
    const r = this.deps.storage.repositories;
    await this.caseAndCoverage(r, principal.organisationId, caseId, coverageId);
    const all = await r.authorizations.listByCase(principal.organisationId, caseId);
    return this.views(
      r,
      all.filter((a) => a.coverageId === coverageId),
    );
  }

  /**
   * One authorization of the case as v2 addresses it, under a coverage: granted under that coverage, or written on
   * v1 under none (a v2 change under the path then records the coverage). AUTHORIZATION_NOT_FOUND otherwise.
   */
  async getUnder(principal: Principal, under: CoveragePath, id: number): Promise<AuthorizationView> {
    const r = this.deps.storage.repositories;
    return this.view(r, await this.findUnder(r, principal.organisationId, under, id));
  }

  private async caseAndCoverage(r: CaseServiceRepositories, orgId: number, caseId: number, coverageId: number) {
    const c = await r.cases.findById(orgId, caseId);
    if (!c) throw caseNotFound(serviceCaseId(caseId));
    await coverageOfPatient(r, orgId, c.patientId, coverageId);
  }

  /** The authorization `id` as the path under a case and coverage names it (getUnder's rule). */
  private async findUnder(
    r: CaseServiceRepositories,
    orgId: number,
    under: CoveragePath,
    id: number,
  ): Promise<Authorization> {
    await this.caseAndCoverage(r, orgId, under.caseId, under.coverageId);
    const found = Number.isSafeInteger(id) && id > 0 ? await r.authorizations.findById(orgId, id) : undefined;
    if (!found || found.caseId !== under.caseId || (found.coverageId !== null && found.coverageId !== under.coverageId))
      throw notFound(id);
    return found;
  }

  /**
   * Partial update; icdCodes and cptCodeAuthorizationDetails replace the whole list. Named `under` a case and
   * coverage (v2's path), it must be found there (getUnder's rule) and is recorded as granted under that coverage.
   */
  async update(
    principal: Principal,
    id: number,
    sent: AuthorizationChanges,
    under?: CoveragePath,
  ): Promise<AuthorizationView> {
    const changes = normaliseAuthorizationInput(under ? { ...sent, coverageId: under.coverageId } : sent);
    assertValidAuthorizationInput(changes, false);
    const orgId = principal.organisationId;
    return this.deps.storage.transaction(async (tx) => {
      const existing = under ? await this.findUnder(tx, orgId, under, id) : await tx.authorizations.findById(orgId, id);
      if (!existing) throw notFound(id);
      await tx.cases.lockForVisits(orgId, existing.caseId);
      const current = (await tx.authorizations.findById(orgId, id)) ?? existing;
      const defined = Object.fromEntries(Object.entries(changes).filter(([, v]) => v !== undefined));
      if (changes.coverageId != null) await coverageOfPatient(tx, orgId, current.patientId, changes.coverageId);
      const now = this.deps.clock.now();
      const next: Authorization = { ...current, ...defined, updatedAt: now };
      assertConsistentAuthorization(next);
      const { updatedAt: _a, ...before } = current;
      const { updatedAt: _b, ...after } = next;
      // A change that changes nothing writes nothing and raises nothing (as a case's).
      if (JSON.stringify(before) === JSON.stringify(after)) return this.view(tx, current);
      await tx.authorizations.update(next);
      await tx.outbox.append(caseEvent("authorization.updated", eventData(next), now));
      await queueAuthorizationsChange(
        tx,
        { organisationId: orgId, caseId: next.caseId, authorizationId: next.id },
        now,
      );
      return this.view(tx, next);
    });
  }

  /** Deletes it; named `under` a case and coverage (v2's path), it must be found there (getUnder's rule). */
  async delete(principal: Principal, id: number, under?: CoveragePath): Promise<void> {
    if (!Number.isSafeInteger(id) || id < 1) throw notFound(id);
    // In a transaction: the event and an audited delete's audit entry commit with it.
    await this.deps.storage.transaction(async (tx) => {
      const orgId = principal.organisationId;
      const found = under ? await this.findUnder(tx, orgId, under, id) : await tx.authorizations.findById(orgId, id);
      if (!found || !(await tx.authorizations.delete(principal.organisationId, id))) throw notFound(id);
      await tx.outbox.append(caseEvent("authorization.deleted", eventData(found), this.deps.clock.now()));
      await queueAuthorizationsChange(
        tx,
        { organisationId: orgId, caseId: found.caseId, authorizationId: found.id },
        this.deps.clock.now(),
      );
    });
  }

  /** By patient name (every word), reference number (substring) and case, newest first; always within the caller's organisation. */
  async search(
    principal: Principal,
    q: Patch<{ patientName: string; referenceNumber: string; caseId: number; page: number; size: number }>,
  ) {
    const { page, size, limit, offset } = toPageWindow(q.page, q.size);
    const r = this.deps.storage.repositories;
    const found = await r.authorizations.search({
      organisationId: principal.organisationId,
      patientTerms: searchTerms(q.patientName ?? ""),
      referenceNumber: q.referenceNumber?.trim() || undefined,
      caseId: q.caseId,
      limit,
      offset,
    });
    return { authorizations: await this.views(r, found.authorizations), total: found.total, page, size };
  }

  private async view(r: CaseServiceRepositories, a: Authorization): Promise<AuthorizationView> {
    return (await this.views(r, [a]))[0]!;
  }

  /** Views of authorizations of one organisation, reading clinics once and each case's appointments once. */
  private views(r: CaseServiceRepositories, authorizations: Authorization[]): Promise<AuthorizationView[]> {
    return authorizationViews(r, authorizations, this.today());
  }
}
