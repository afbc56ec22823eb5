import { foldForMatch, type FhirPatientCriteria, type Repositories, type StringFilter } from "@openpractice/core";
import { type MemoryState, toPatient } from "./memory-state.js";

const holds = (f: StringFilter, texts: string[]) =>
  f.values.some((v) =>
    texts.some((t) => (f.mode === "exact" ? t === v : f.mode === "prefix" ? t.startsWith(v) : t.includes(v))),
  );

/** FHIR Patient search over the in-memory patients, as the SQL adapters answer it (folded names, id tiebreak). */
export function memoryFhir(s: () => MemoryState): Pick<Repositories, "fhirPatients"> {
  return {
    fhirPatients: {
      async search(c: FhirPatientCriteria) {
        const sortKey = (p: { id: number; updatedAt: Date; lastName: string; dateOfBirth: string }) =>
          c.sort.field === "updated"
            ? p.updatedAt.toISOString()
            : c.sort.field === "family"
              ? foldForMatch(p.lastName)
              : c.sort.field === "birthdate"
                ? p.dateOfBirth
                : "";
        const rows = [...s().patients.values()]
          .filter((p) => p.organisationId === c.organisationId)
          .filter((p) => (c.ids ?? []).every((ids) => ids.includes(p.id)))
          .filter((p) => (c.family ?? []).every((f) => holds(f, [foldForMatch(p.lastName)])))
          .filter((p) => (c.given ?? []).every((f) => holds(f, [foldForMatch(p.firstName)])))
          .filter((p) => (c.name ?? []).every((f) => holds(f, [foldForMatch(p.lastName), foldForMatch(p.firstName)])))
          .filter((p) =>
            (c.birthDate ?? []).every(
              (r) =>
                (r.from === undefined || p.dateOfBirth >= r.from) &&
                (r.before === undefined || p.dateOfBirth < r.before),
            ),
          )
          .filter((p) => (c.sex ?? []).every((sexes) => sexes.includes(p.sex)))
          .filter((p) =>
            (c.updated ?? []).every((r) => (!r.from || p.updatedAt >= r.from) && (!r.before || p.updatedAt < r.before)),
          )
          .sort((a, b) => {
            const order = sortKey(a) < sortKey(b) ? -1 : sortKey(a) > sortKey(b) ? 1 : a.id - b.id;
            return c.sort.order === "asc" ? order : -order;
          });
        const page = rows.slice(c.offset, c.offset + c.limit + 1);
        return {
          patients: page.slice(0, c.limit).map((p) => structuredClone(toPatient(p))),
          hasMore: page.length > c.limit,
        };
      },
    },
  };
}
