import type { StaffMember, StaffRole, StaffSortField, StaffStatus } from "./staff.js";

/** A list request as the repository runs it: folded search terms, filters, order and window. */
export interface StaffListFilter {
  /** Each must occur in the folded "first last email" (staffSearchText). */
  terms: string[];
  status?: StaffStatus | undefined;
  role?: StaffRole | undefined;
  clinicId?: number | undefined;
  sort: StaffSortField;
  order: "asc" | "desc";
  limit: number;
  offset: number;
}

/**
 * Staff members per organisation; every method is scoped by organisation id (another organisation's member is
 * invisible). Email uniqueness is per organisation on the lower-cased email (staffEmailKey), decided by a unique
 * key.
 */
export interface StaffRepository {
  /**
   * Inserts with its clinic memberships; `created: false` with the existing member's id when the organisation
   * already has one with this email (nothing written). Concurrency: of concurrent inserts of one email exactly one
   * is created and the others name it. Never throws for the duplicate, so an enclosing transaction stays usable.
   */
  insert(
    record: Omit<StaffMember, "id">,
  ): Promise<{ created: true; member: StaffMember } | { created: false; existingId: number }>;
  findById(organisationId: number, id: number): Promise<StaffMember | undefined>;
  /**
   * Replaces the stored fields and clinic memberships; `updated: false` with the holder's id when the new email
   * belongs to another member (nothing written; an enclosing transaction stays usable).
   */
  update(member: StaffMember): Promise<{ updated: true } | { updated: false; existingId: number }>;
  /** One page in the requested order (ties by id in the same direction) and the count of all matches. */
  list(organisationId: number, filter: StaffListFilter): Promise<{ members: StaffMember[]; total: number }>;
}
