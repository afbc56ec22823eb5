import { foldForMatch, payerSearchText, type Payer, type Repositories } from "@openpractice/core";
import { type MemoryState, moduleState } from "./memory-state.js";

/** The payer registry and organisations' payers in memory, in the domain's own slice of the state. */
export function memoryPayers(s: () => MemoryState): Pick<Repositories, "payers"> {
  const payers = () => moduleState(s(), "payers", () => new Map<number, Payer>());
  const visible = (organisationId: number) =>
    [...payers().values()].filter((p) => p.organisationId === null || p.organisationId === organisationId);
  return {
    payers: {
      async upsertRegistry(rows) {
        let created = 0;
        let updated = 0;
        for (const row of rows) {
          const found = [...payers().values()].find((p) => p.organisationId === null && p.payerId === row.payerId);
          if (found) {
            payers().set(found.id, { ...found, ...structuredClone(row), createdAt: found.createdAt });
            updated++;
          } else {
            const id = s().nextId++;
            payers().set(id, { ...structuredClone(row), id, organisationId: null });
            created++;
          }
        }
        return { created, updated };
      },
      async insert(p) {
        const holder = visible(p.organisationId ?? 0).find((x) => x.payerId === p.payerId);
        if (holder) return { created: false, existingId: holder.id };
        const payer = { ...structuredClone(p), id: s().nextId++ };
        payers().set(payer.id, payer);
        return { created: true, payer: structuredClone(payer) };
      },
      findById: async (organisationId, id) => structuredClone(visible(organisationId).find((p) => p.id === id)),
      async search(organisationId, f) {
        const rows = visible(organisationId)
          .filter(
            (p) => (f.type === undefined || p.type === f.type) && f.terms.every((t) => payerSearchText(p).includes(t)),
          )
          .sort((a, b) => {
            const [x, y] = [foldForMatch(a.name), foldForMatch(b.name)];
            return x < y ? -1 : x > y ? 1 : a.id - b.id;
          });
        return { payers: structuredClone(rows.slice(f.offset, f.offset + f.limit)), total: rows.length };
      },
    },
  };
}
