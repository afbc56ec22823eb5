import {
  clinicWithDefaults,
  DEFAULT_DOCUMENTATION_SETTINGS,
  providerWithDefaults,
  type NewJob,
  type Repositories,
} from "@openpractice/core";
import { toPatient, type MemoryState } from "./memory-state.js";

const SORT = {
  created_at: "createdAt",
  updated_at: "updatedAt",
  last_name: "lastNameSort",
  first_name: "firstNameSort",
} as const;

/**
 * Every repository over one state object. These functions never await between
 * a read and the write that depends on it, so each call is atomic on Node's
 * single thread; the store's mutex orders whole transactions.
 */
/**
 * The platform's repositories (organisations and their directory, the catalog,
 * patients, the outbox, rate limits, jobs, locks); the domains' come from
 * domains.ts.
 */
type FoundationRepositories = Pick<
  Repositories,
  "organisations" | "catalog" | "patients" | "outbox" | "rateLimits" | "jobs" | "locks"
>;

export function memoryFoundation(s: () => MemoryState): FoundationRepositories {
  const enqueueJob = (job: NewJob) => {
    const id = s().nextId++;
    s().jobs.set(id, {
      id,
      queue: job.queue,
      payload: structuredClone(job.payload),
      status: "pending",
      runAt: job.runAt.getTime(),
      attempts: 0,
      leaseToken: null,
      leaseExpiresAt: null,
      lastError: null,
      completedBy: null,
    });
    return id;
  };
  /** The provider holding this user id or NPI in the organisation (other than `exceptId`), and which. */
  const providerHolding = (orgId: number, userId: number | undefined, npi: string | null, exceptId?: number) => {
    const others = s().providers.filter((x) => x.organisationId === orgId && x.id !== exceptId);
    const byUser = userId === undefined ? undefined : others.find((x) => x.userId === userId);
    if (byUser) return { field: "userId" as const, existingId: byUser.id };
    const byNpi = npi === null ? undefined : others.find((x) => x.npi === npi);
    return byNpi ? { field: "npi" as const, existingId: byNpi.id } : undefined;
  };
  return {
    organisations: {
      findById: async (id) => structuredClone(s().organisations.get(id)),
      async ensure(org) {
        if (!s().organisations.has(org.id))
          s().organisations.set(org.id, {
            id: org.id,
            name: org.name,
            plan: org.plan,
            isActive: true,
            timeZone: "UTC",
            deactivatedAt: null,
            auditReads: false,
            documentation: { ...DEFAULT_DOCUMENTATION_SETTINGS },
            createdAt: org.now,
            updatedAt: org.now,
          });
      },
      async insertOrganisation(org) {
        const id = Math.max(0, ...s().organisations.keys()) + 1;
        const stored = { ...structuredClone(org), id };
        s().organisations.set(id, stored);
        return structuredClone(stored);
      },
      async listOrganisations(f) {
        const rows = [...s().organisations.values()]
          .filter((o) => f.deactivated === undefined || (o.deactivatedAt !== null) === f.deactivated)
          .sort((a, b) => a.id - b.id);
        return { organisations: structuredClone(rows.slice(f.offset, f.offset + f.limit)), total: rows.length };
      },
      async updateOrganisation(org) {
        const current = s().organisations.get(org.id);
        if (current)
          s().organisations.set(org.id, {
            ...current,
            ...structuredClone(org),
            isActive: current.isActive,
            documentation: current.documentation,
          });
      },
      async updateProfile(id, changes, now) {
        const org = s().organisations.get(id);
        if (org)
          s().organisations.set(id, {
            ...org,
            name: changes.name ?? org.name,
            isActive: changes.isActive ?? org.isActive,
            updatedAt: now,
          });
      },
      async updateDocumentationSettings(id, settings, now) {
        const org = s().organisations.get(id);
        if (org)
          s().organisations.set(id, { ...org, documentation: { ...org.documentation, ...settings }, updatedAt: now });
      },
      async setPlan(id, plan, now) {
        const org = s().organisations.get(id);
        if (org) s().organisations.set(id, { ...org, plan, updatedAt: now });
      },
      async ensureClinic(clinic) {
        const found = s().clinics.find((c) => c.organisationId === clinic.organisationId && c.name === clinic.name);
        if (found) return structuredClone(found);
        const created = { ...clinicWithDefaults(clinic), id: s().nextId++ };
        s().clinics.push(created);
        return structuredClone(created);
      },
      async insertClinic(clinic) {
        const holder = s().clinics.find((c) => c.organisationId === clinic.organisationId && c.name === clinic.name);
        if (holder) return { created: false, existingId: holder.id };
        const created = { ...structuredClone(clinic), id: s().nextId++ };
        s().clinics.push(created);
        return { created: true, clinic: structuredClone(created) };
      },
      async updateClinic(clinic) {
        const holder = s().clinics.find(
          (c) => c.organisationId === clinic.organisationId && c.name === clinic.name && c.id !== clinic.id,
        );
        if (holder) return { updated: false, existingId: holder.id };
        const i = s().clinics.findIndex((c) => c.organisationId === clinic.organisationId && c.id === clinic.id);
        if (i >= 0) s().clinics[i] = structuredClone(clinic);
        return { updated: true };
      },
      findClinic: async (orgId, id) =>
        structuredClone(s().clinics.find((c) => c.organisationId === orgId && c.id === id)),
      listClinics: async (orgId) => structuredClone(s().clinics.filter((c) => c.organisationId === orgId)),
      async upsertProvider(p) {
        const i = s().providers.findIndex((x) => x.organisationId === p.organisationId && x.userId === p.userId);
        const existing = i >= 0 ? s().providers[i] : undefined;
        // An existing provider keeps what the call does not name (as the SQL upsert updates only the given columns).
        const stored = existing
          ? { ...existing, ...structuredClone(p), clinicIds: [...p.clinicIds] }
          : { ...providerWithDefaults(p), id: s().nextId++ };
        if (i >= 0) s().providers[i] = stored;
        else s().providers.push(stored);
        return structuredClone(stored);
      },
      async insertProvider(p) {
        const holder = providerHolding(p.organisationId, p.userId, p.npi);
        if (holder) return { created: false, ...holder };
        const stored = { ...structuredClone(p), id: s().nextId++ };
        s().providers.push(stored);
        return { created: true, provider: structuredClone(stored) };
      },
      async updateProvider(p) {
        const holder = providerHolding(p.organisationId, undefined, p.npi, p.id);
        if (holder) return { updated: false, field: "npi", existingId: holder.existingId };
        const i = s().providers.findIndex((x) => x.organisationId === p.organisationId && x.id === p.id);
        if (i >= 0) s().providers[i] = { ...structuredClone(p), userId: s().providers[i]!.userId };
        return { updated: true };
      },
      findProviderById: async (orgId, id) =>
        structuredClone(s().providers.find((p) => p.organisationId === orgId && p.id === id)),
      listProviders: async (orgId) => structuredClone(s().providers.filter((p) => p.organisationId === orgId)),
      findProvider: async (orgId, userId) =>
        structuredClone(s().providers.find((p) => p.organisationId === orgId && p.userId === userId)),
    },
    catalog: {
      async ensureAppointmentCategory(c) {
        const found = s().categories.find((x) => x.organisationId === c.organisationId && x.name === c.name);
        if (found) return { ...found };
        const created = { ...c, colour: c.colour ?? null, active: c.active ?? true, id: s().nextId++ };
        s().categories.push(created);
        return { ...created };
      },
      async insertAppointmentCategory(c) {
        const holder = s().categories.find((x) => x.organisationId === c.organisationId && x.name === c.name);
        if (holder) return { created: false, existingId: holder.id };
        const created = { ...c, id: s().nextId++ };
        s().categories.push(created);
        return { created: true, category: { ...created } };
      },
      async updateAppointmentCategory(c) {
        const holder = s().categories.find(
          (x) => x.organisationId === c.organisationId && x.name === c.name && x.id !== c.id,
        );
        if (holder) return { updated: false, existingId: holder.id };
        const i = s().categories.findIndex((x) => x.organisationId === c.organisationId && x.id === c.id);
        if (i >= 0) s().categories[i] = { ...c };
        return { updated: true };
      },
      findAppointmentCategory: async (orgId, id) =>
        structuredClone(s().categories.find((x) => x.organisationId === orgId && x.id === id)),
      listAppointmentCategories: async (orgId) =>
        structuredClone(s().categories.filter((c) => c.organisationId === orgId)),
      async ensureCancellationReason(r) {
        const found = s().reasons.find((x) => x.organisationId === r.organisationId && x.reasonKey === r.reasonKey);
        if (found) return { ...found };
        const created = { ...r, id: s().nextId++ };
        s().reasons.push(created);
        return { ...created };
      },
      listCancellationReasons: async (orgId) => structuredClone(s().reasons.filter((r) => r.organisationId === orgId)),
      async insertCancellationReason(r) {
        const holder = s().reasons.find((x) => x.organisationId === r.organisationId && x.reasonKey === r.reasonKey);
        if (holder) return { created: false, existingId: holder.id };
        const created = { ...r, id: s().nextId++ };
        s().reasons.push(created);
        return { created: true, reason: { ...created } };
      },
      async updateCancellationReason(r) {
        const i = s().reasons.findIndex((x) => x.organisationId === r.organisationId && x.id === r.id);
        if (i >= 0)
          s().reasons[i] = {
            ...s().reasons[i]!,
            reasonLabel: r.reasonLabel,
            cancellationFee: r.cancellationFee,
            status: r.status,
          };
      },
      findCancellationReason: async (orgId, id) =>
        structuredClone(s().reasons.find((x) => x.organisationId === orgId && x.id === id)),
      enableSpecialization: async (orgId, code) => void s().specializations.add(`${orgId}|${code}`),
      listSpecializations: async (orgId) =>
        [...s().specializations]
          .filter((k) => k.startsWith(`${orgId}|`))
          .map((k) => k.slice(String(orgId).length + 1))
          .sort(),
    },
    patients: {
      async insertIfAbsent(record) {
        const existing = [...s().patients.values()].find(
          (p) => p.organisationId === record.organisationId && p.identityKey === record.identityKey,
        );
        if (existing) return { created: false, patient: toPatient(existing) };
        const stored = { ...structuredClone(record), id: s().nextId++ };
        s().patients.set(stored.id, stored);
        return { created: true, patient: toPatient(stored) };
      },
      async findById(orgId, id) {
        const p = s().patients.get(id);
        return p && p.organisationId === orgId ? toPatient(p) : undefined;
      },
      async replace(id, record) {
        const clash = [...s().patients.values()].find(
          (p) => p.organisationId === record.organisationId && p.identityKey === record.identityKey && p.id !== id,
        );
        if (clash) return { outcome: "conflict", existingId: clash.id };
        const current = s().patients.get(id);
        if (!current || current.organisationId !== record.organisationId) return { outcome: "missing" };
        const stored = {
          ...structuredClone(record),
          id,
          organisationId: current.organisationId,
          createdAt: current.createdAt,
        };
        s().patients.set(id, stored);
        return { outcome: "updated", patient: toPatient(stored) };
      },
      async list(c) {
        const t = (d?: Date) => d?.getTime();
        const rows = [...s().patients.values()].filter(
          (p) =>
            p.organisationId === c.organisationId &&
            (c.status === "all" || p.status === c.status) &&
            c.searchTerms.every((term) => p.searchText.includes(term)) &&
            (c.createdFrom === undefined || p.createdAt.getTime() >= t(c.createdFrom)!) &&
            (c.createdBefore === undefined || p.createdAt.getTime() < t(c.createdBefore)!) &&
            (c.updatedFrom === undefined || p.updatedAt.getTime() >= t(c.updatedFrom)!) &&
            (c.updatedBefore === undefined || p.updatedAt.getTime() < t(c.updatedBefore)!),
        );
        const key = SORT[c.sort];
        const sign = c.order === "asc" ? 1 : -1;
        const value = (p: (typeof rows)[number]) => (p[key] instanceof Date ? (p[key] as Date).getTime() : p[key]);
        rows.sort((a, b) => (value(a) < value(b) ? -sign : value(a) > value(b) ? sign : sign * (a.id - b.id)));
        return { patients: rows.slice(c.offset, c.offset + c.limit).map(toPatient), total: rows.length };
      },
    },
    outbox: {
      append: async (event) =>
        void s().outbox.push({ ...structuredClone(event), id: s().nextId++, dispatchedAt: null }),
      listPending: async (limit) =>
        structuredClone(
          s()
            .outbox.filter((e) => e.dispatchedAt === null)
            .slice(0, limit),
        ),
      async markDispatched(ids, at) {
        for (const e of s().outbox) if (ids.includes(e.id)) e.dispatchedAt = at;
      },
    },
    rateLimits: {
      async hit(key, windowStart, hits = 1) {
        const k = `${key}|${windowStart.toISOString()}`;
        const n = (s().counters.get(k) ?? 0) + hits;
        s().counters.set(k, n);
        return n;
      },
      async release(key, windowStart, hits) {
        const k = `${key}|${windowStart.toISOString()}`;
        const n = s().counters.get(k);
        if (n !== undefined) s().counters.set(k, Math.max(0, n - hits));
      },
      count: async (key, windowStart) => s().counters.get(`${key}|${windowStart.toISOString()}`) ?? 0,
      async deleteWindowsBefore(before) {
        let removed = 0;
        for (const k of [...s().counters.keys()]) {
          if (k.slice(k.lastIndexOf("|") + 1) < before.toISOString()) removed += Number(s().counters.delete(k));
        }
        return removed;
      },
    },
    jobs: {
      enqueue: async (job) => enqueueJob(job),
      async stats(queues, now) {
        return queues.map((queue) => {
          const own = [...s().jobs.values()].filter((j) => j.queue === queue);
          const due = own.filter((j) => j.status === "pending" && j.runAt <= now.getTime());
          return {
            queue,
            due: due.length,
            scheduled: own.filter((j) => j.status === "pending" && j.runAt > now.getTime()).length,
            failed: own.filter((j) => j.status === "failed").length,
            oldestDueAt: due.length ? new Date(Math.min(...due.map((j) => j.runAt))) : null,
          };
        });
      },
      enqueueMany: async (jobs) => void jobs.forEach(enqueueJob),
      async claim(queue, o) {
        const now = o.now.getTime();
        const due = [...s().jobs.values()]
          .filter(
            (j) =>
              j.queue === queue &&
              j.status === "pending" &&
              j.runAt <= now &&
              (j.leaseExpiresAt === null || j.leaseExpiresAt <= now),
          )
          .sort((a, b) => a.runAt - b.runAt || a.id - b.id)
          .slice(0, o.limit);
        return due.map((j) => {
          Object.assign(j, { leaseToken: o.leaseToken, leaseExpiresAt: now + o.leaseMs, attempts: j.attempts + 1 });
          return {
            id: j.id,
            queue: j.queue,
            payload: structuredClone(j.payload),
            runAt: new Date(j.runAt),
            attempts: j.attempts,
            leaseToken: o.leaseToken,
            leaseExpiresAt: new Date(now + o.leaseMs),
          };
        });
      },
      complete: async (id, token, _now, by) => settle(s(), id, token, { status: "done", completedBy: by }),
      completeMany: async (jobs, _now, by) =>
        jobs.filter((j) => settle(s(), j.id, j.leaseToken, { status: "done", completedBy: by })).length,
      async renewLeases(jobs, now, leaseMs) {
        const held = jobs
          .map((l) => s().jobs.get(l.id))
          .filter((j, i) => j?.status === "pending" && j.leaseToken === jobs[i]!.leaseToken);
        for (const j of held) j!.leaseExpiresAt = now.getTime() + leaseMs;
        return held.length;
      },
      reschedule: async (id, token, runAt, error) =>
        settle(s(), id, token, { runAt: runAt.getTime(), lastError: error }),
      fail: async (id, token, _now, error) => settle(s(), id, token, { status: "failed", lastError: error }),
    },
    locks: {
      async tryAcquire(name, holder, now, ttlMs) {
        const lock = s().locks.get(name);
        if (lock && lock.holder !== holder && lock.expiresAt > now.getTime()) return false;
        s().locks.set(name, { holder, expiresAt: now.getTime() + ttlMs });
        return true;
      },
      async release(name, holder) {
        if (s().locks.get(name)?.holder === holder) s().locks.delete(name);
      },
    },
  };
}

function settle(
  state: MemoryState,
  id: number,
  token: string,
  changes: Partial<MemoryState["jobs"] extends Map<number, infer J> ? J : never>,
): boolean {
  const job = state.jobs.get(id);
  if (!job || job.status !== "pending" || job.leaseToken !== token) return false;
  Object.assign(job, changes, { leaseToken: null, leaseExpiresAt: null });
  return true;
}
