import type { BillingCodeRepository } from "@openpractice/core";
import type { MemoryState } from "./memory-state.js";

/** The billing-code catalog in memory, keyed by (organisation, code). */
export function memoryBillingCodes(s: () => MemoryState): BillingCodeRepository {
  return {
    async upsert(orgId, codes, now) {
      let created = 0;
      for (const c of codes) {
        const current = s().billingCodes.find((x) => x.organisationId === orgId && x.code === c.code);
        if (current) Object.assign(current, structuredClone(c));
        else {
          s().billingCodes.push({ ...structuredClone(c), id: s().nextId++, organisationId: orgId, createdAt: now });
          created++;
        }
      }
      return { created, updated: codes.length - created };
    },
    list: async (orgId) =>
      structuredClone(
        s()
          .billingCodes.filter((c) => c.organisationId === orgId)
          .sort((a, b) => (a.code < b.code ? -1 : 1)),
      ),
  };
}
