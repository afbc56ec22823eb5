import {
  foldForMatch,
  staffEmailKey,
  staffSearchText,
  type StaffListFilter,
  type StaffMember,
  type StaffRepository,
  type StaffRole,
  type StaffStatus,
} from "@openpractice/core";
import { type Kysely, type Selectable, sql } from "kysely";
import { readLatest, refusableStatement } from "../contention.js";
import { insertIgnoringDuplicateReturningId } from "../insert-ignoring-duplicate.js";
import type { StaffTable } from "../tables/staff.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { containsPattern } from "./contains-pattern.js";

const SORT_COLUMN = {
  last_name: "last_name_sort",
  first_name: "first_name_sort",
  created_at: "created_at",
  updated_at: "updated_at",
} as const;

function columns(m: Omit<StaffMember, "id">) {
  return {
    first_name: m.firstName,
    last_name: m.lastName,
    first_name_sort: foldForMatch(m.firstName),
    last_name_sort: foldForMatch(m.lastName),
    email: m.email,
    email_key: staffEmailKey(m.email),
    phone: m.phone,
    roles: JSON.stringify(m.roles),
    status: m.status,
    search_text: staffSearchText(m),
    updated_at: toDbTime(m.updatedAt),
    deactivated_at: m.deactivatedAt ? toDbTime(m.deactivatedAt) : null,
  };
}

const toMember = (r: Selectable<StaffTable>, clinicIds: number[]): StaffMember => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  firstName: r.first_name,
  lastName: r.last_name,
  email: r.email,
  phone: r.phone,
  roles: JSON.parse(r.roles) as StaffRole[],
  clinicIds,
  status: r.status as StaffStatus,
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
  deactivatedAt: r.deactivated_at === null ? null : fromDbTime(r.deactivated_at),
});

export class KyselyStaffRepository implements StaffRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  /** The member holding the email, as last committed (also when this transaction's snapshot is older). */
  private async holderOfEmail(organisationId: number, email: string, exceptId?: number): Promise<number | undefined> {
    let q = this.db
      .selectFrom("staff")
      .select("id")
      .where("organisation_id", "=", organisationId)
      .where("email_key", "=", staffEmailKey(email));
    if (exceptId !== undefined) q = q.where("id", "<>", exceptId);
    const row = await readLatest(this.profile, q).executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  /** Clinic ids per member, in clinic id order. */
  private async clinicsOf(staffIds: number[]): Promise<Map<number, number[]>> {
    const out = new Map(staffIds.map((id) => [id, [] as number[]]));
    if (staffIds.length === 0) return out;
    const rows = await this.db
      .selectFrom("staff_clinics")
      .select(["staff_id", "clinic_id"])
      .where("staff_id", "in", staffIds)
      .orderBy("clinic_id")
      .execute();
    for (const r of rows) out.get(Number(r.staff_id))?.push(Number(r.clinic_id));
    return out;
  }

  private async setClinics(staffId: number, clinicIds: readonly number[]): Promise<void> {
    await this.db.deleteFrom("staff_clinics").where("staff_id", "=", staffId).execute();
    if (clinicIds.length > 0)
      await this.db
        .insertInto("staff_clinics")
        .values(clinicIds.map((clinicId) => ({ staff_id: staffId, clinic_id: clinicId })))
        .execute();
  }

  async insert(record: Omit<StaffMember, "id">) {
    const values = {
      organisation_id: record.organisationId,
      created_at: toDbTime(record.createdAt),
      ...columns(record),
    };
    // The unique key on (organisation, email_key) decides between concurrent inserts without raising.
    const id = await insertIgnoringDuplicateReturningId(this.db, this.profile, "staff", values, [
      "organisation_id",
      "email_key",
    ]);
    if (id === undefined) {
      const existing = await this.holderOfEmail(record.organisationId, record.email);
      if (existing === undefined) throw new Error("staff: email holder missing right after a refused insert");
      return { created: false as const, existingId: existing };
    }
    await this.setClinics(id, record.clinicIds);
    return {
      created: true as const,
      member: { ...record, clinicIds: [...record.clinicIds].sort((a, b) => a - b), id },
    };
  }

  async findById(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("staff")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toMember(row, (await this.clinicsOf([id])).get(id) ?? []) : undefined;
  }

  async update(member: StaffMember) {
    const existing = await this.holderOfEmail(member.organisationId, member.email, member.id);
    if (existing !== undefined) return { updated: false as const, existingId: existing };
    try {
      await refusableStatement(this.db, this.profile, () =>
        this.db
          .updateTable("staff")
          .set(columns(member))
          .where("organisation_id", "=", member.organisationId)
          .where("id", "=", member.id)
          .execute(),
      );
    } catch (error) {
      if (!this.profile.isUniqueViolation(error)) throw error;
      return {
        updated: false as const,
        existingId: (await this.holderOfEmail(member.organisationId, member.email, member.id)) ?? 0,
      };
    }
    await this.setClinics(member.id, member.clinicIds);
    return { updated: true as const };
  }

  async list(organisationId: number, f: StaffListFilter) {
    let q = this.db.selectFrom("staff").where("organisation_id", "=", organisationId);
    if (f.status !== undefined) q = q.where("status", "=", f.status);
    // Roles are a JSON array of known words: the quoted word matches exactly one role.
    if (f.role !== undefined) q = q.where("roles", "like", `%"${f.role}"%`);
    if (f.clinicId !== undefined) {
      const clinicId = f.clinicId;
      q = q.where((eb) =>
        eb.exists(
          eb
            .selectFrom("staff_clinics")
            .select("staff_clinics.staff_id")
            .whereRef("staff_clinics.staff_id", "=", "staff.id")
            .where("staff_clinics.clinic_id", "=", clinicId),
        ),
      );
    }
    for (const term of f.terms) q = q.where(sql<boolean>`search_text like ${containsPattern(term)} escape ${"\\"}`);
    const [rows, counted] = await Promise.all([
      q
        .selectAll()
        .orderBy(SORT_COLUMN[f.sort], f.order)
        .orderBy("id", f.order)
        .limit(f.limit)
        .offset(f.offset)
        .execute(),
      q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    ]);
    const clinics = await this.clinicsOf(rows.map((r) => Number(r.id)));
    return { members: rows.map((r) => toMember(r, clinics.get(Number(r.id)) ?? [])), total: Number(counted.n) };
  }
}
