import type { Repositories, TherapyCharge } from "@openpractice/core";
import { type MemoryState, moduleState } from "./memory-state.js";

/** The therapy-threshold ledger in memory, in insertion order. */
export function memoryMedicare(s: () => MemoryState): Pick<Repositories, "therapyCharges"> {
  const charges = () => moduleState(s(), "therapyCharges", () => [] as TherapyCharge[]);
  const ofYear = (organisationId: number, patientId: number, year: number) =>
    charges().filter((c) => c.organisationId === organisationId && c.patientId === patientId && c.year === year);
  return {
    therapyCharges: {
      async insert(list) {
        const stored = list.map((c) => ({ ...structuredClone(c), id: s().nextId++ }));
        charges().push(...stored);
        return structuredClone(stored);
      },
      async totals(organisationId, patientId, year, through) {
        const out = { PT_SLP: 0, OT: 0 };
        for (const c of ofYear(organisationId, patientId, year))
          if (through === undefined || c.serviceDate <= through) out[c.bucket] += c.allowedCents;
        return out;
      },
      // One thread, and a transaction runs alone: nothing to wait for.
      async lockPatient() {},
      async list(organisationId, patientId, year) {
        return structuredClone(
          ofYear(organisationId, patientId, year).sort(
            (a, b) => a.serviceDate.localeCompare(b.serviceDate) || a.id - b.id,
          ),
        );
      },
    },
  };
}
