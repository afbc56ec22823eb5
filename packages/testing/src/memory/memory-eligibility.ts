import type { ClearinghouseSettings, EligibilityCheck, Repositories } from "@openpractice/core";
import { type MemoryState, moduleState } from "./memory-state.js";

/** Eligibility checks in memory, newest first by id. */
export function memoryEligibility(
  s: () => MemoryState,
): Pick<Repositories, "eligibilityChecks" | "clearinghouseSettings"> {
  const checks = () => moduleState(s(), "eligibilityChecks", () => new Map<number, EligibilityCheck>());
  const newestFirst = (organisationId: number, coverageId: number) =>
    [...checks().values()]
      .filter((c) => c.organisationId === organisationId && c.coverageId === coverageId)
      .sort((a, b) => b.id - a.id);
  const clearinghouses = () =>
    moduleState(s(), "clearinghouseSettings", () => new Map<number, ClearinghouseSettings>());
  return {
    clearinghouseSettings: {
      find: async (organisationId) => structuredClone(clearinghouses().get(organisationId)),
      async save(settings, passwordChanged) {
        const current = clearinghouses().get(settings.organisationId);
        clearinghouses().set(settings.organisationId, {
          ...structuredClone(settings),
          createdAt: current?.createdAt ?? settings.createdAt,
          ...(current && !passwordChanged
            ? { sealedPassword: current.sealedPassword, passwordSetAt: current.passwordSetAt }
            : {}),
        });
      },
      async recordTest(organisationId, testedUpdatedAt, at, outcome) {
        const current = clearinghouses().get(organisationId);
        if (current && current.updatedAt.getTime() === testedUpdatedAt.getTime())
          Object.assign(current, { lastTestedAt: at, lastTestOutcome: outcome });
      },
      remove: async (organisationId) => clearinghouses().delete(organisationId),
    },
    eligibilityChecks: {
      async insert(record) {
        const id = s().nextId++;
        checks().set(id, { ...structuredClone(record), id });
        return id;
      },
      async listByCoverage(organisationId, coverageId, page) {
        const all = newestFirst(organisationId, coverageId);
        return { checks: structuredClone(all.slice(page.offset, page.offset + page.limit)), total: all.length };
      },
      latestAnswered: async (organisationId, coverageIds) =>
        structuredClone(
          coverageIds.flatMap(
            (id) => newestFirst(organisationId, id).find((c) => c.status === "active" || c.status === "inactive") ?? [],
          ),
        ),
    },
  };
}
