import { foldForMatch, staffEmailKey, staffSearchText, type Repositories, type StaffMember } from "@openpractice/core";
import { type MemoryState, moduleState } from "./memory-state.js";

const SORT_KEY = {
  last_name: (m: StaffMember) => foldForMatch(m.lastName),
  first_name: (m: StaffMember) => foldForMatch(m.firstName),
  created_at: (m: StaffMember) => m.createdAt.toISOString(),
  updated_at: (m: StaffMember) => m.updatedAt.toISOString(),
} as const;

/** Staff members in memory, in the domain's own slice of the state. */
export function memoryStaff(s: () => MemoryState): Pick<Repositories, "staff"> {
  const members = () => moduleState(s(), "staff", () => new Map<number, StaffMember>());
  const emailHolder = (organisationId: number, email: string, exceptId?: number) =>
    [...members().values()].find(
      (m) =>
        m.organisationId === organisationId && staffEmailKey(m.email) === staffEmailKey(email) && m.id !== exceptId,
    )?.id;
  return {
    staff: {
      async insert(record) {
        const existingId = emailHolder(record.organisationId, record.email);
        if (existingId !== undefined) return { created: false, existingId };
        const member = { ...structuredClone(record), id: s().nextId++ };
        members().set(member.id, member);
        return { created: true, member: structuredClone(member) };
      },
      findById: async (organisationId, id) =>
        structuredClone([members().get(id)].find((m) => m?.organisationId === organisationId)),
      async update(member) {
        const existingId = emailHolder(member.organisationId, member.email, member.id);
        if (existingId !== undefined) return { updated: false, existingId };
        if (members().get(member.id)?.organisationId === member.organisationId)
          members().set(member.id, structuredClone(member));
        return { updated: true };
      },
      async list(organisationId, f) {
        const key = SORT_KEY[f.sort];
        const direction = f.order === "asc" ? 1 : -1;
        const rows = [...members().values()]
          .filter(
            (m) =>
              m.organisationId === organisationId &&
              (f.status === undefined || m.status === f.status) &&
              (f.role === undefined || m.roles.includes(f.role)) &&
              (f.clinicId === undefined || m.clinicIds.includes(f.clinicId)) &&
              f.terms.every((t) => staffSearchText(m).includes(t)),
          )
          .sort((a, b) => (key(a) < key(b) ? -direction : key(a) > key(b) ? direction : (a.id - b.id) * direction));
        return { members: structuredClone(rows.slice(f.offset, f.offset + f.limit)), total: rows.length };
      },
    },
  };
}
