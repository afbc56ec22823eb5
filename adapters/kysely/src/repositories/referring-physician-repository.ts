import {
  foldForMatch,
  type ReferringPhysician,
  type ReferringPhysicianRecord,
  type ReferringPhysicianRepository,
} from "@openpractice/core";
import { sql, type Insertable, type Kysely, type Selectable } from "kysely";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { ReferringPhysiciansTable } from "../tables/cases.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { readLatest, refusableStatement } from "../contention.js";
import { insertIgnoringDuplicateReturningId } from "../insert-ignoring-duplicate.js";
import { containsPattern } from "./contains-pattern.js";

function columns(
  p: ReferringPhysicianRecord,
): Omit<Insertable<ReferringPhysiciansTable>, "organisation_id" | "created_at"> {
  return {
    first_name: p.firstName,
    last_name: p.lastName,
    npi: p.npi,
    phone_number: p.phoneNumber,
    fax_number: p.faxNumber,
    address1: p.address1,
    address2: p.address2,
    city: p.city,
    state: p.state,
    zip: p.zip,
    search_text: foldForMatch([p.firstName, p.lastName, p.npi ?? ""].join(" ")),
    updated_at: toDbTime(p.updatedAt),
  };
}

const toPhysician = (r: Selectable<ReferringPhysiciansTable>): ReferringPhysician => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  firstName: r.first_name,
  lastName: r.last_name,
  npi: r.npi,
  phoneNumber: r.phone_number,
  faxNumber: r.fax_number,
  address1: r.address1,
  address2: r.address2,
  city: r.city,
  state: r.state,
  zip: r.zip,
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

export class KyselyReferringPhysicianRepository implements ReferringPhysicianRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  /** The physician holding the NPI, as last committed (also when this transaction's snapshot is older). */
  private async holderOfNpi(
    organisationId: number,
    npi: string | null,
    exceptId?: number,
  ): Promise<number | undefined> {
    if (npi === null) return undefined;
    let q = this.db
      .selectFrom("referring_physicians")
      .select("id")
      .where("organisation_id", "=", organisationId)
      .where("npi", "=", npi);
    if (exceptId !== undefined) q = q.where("id", "<>", exceptId);
    const row = await readLatest(this.profile, q).executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  async insert(record: ReferringPhysicianRecord) {
    const values = {
      organisation_id: record.organisationId,
      created_at: toDbTime(record.createdAt),
      ...columns(record),
    };
    // The unique key on (organisation, NPI) decides between concurrent inserts, without raising: the loser reads the winner.
    const id = await insertIgnoringDuplicateReturningId(this.db, this.profile, "referring_physicians", values, [
      "organisation_id",
      "npi",
    ]);
    if (id !== undefined) return { created: true as const, physician: { ...record, id } };
    const existing = await this.holderOfNpi(record.organisationId, record.npi);
    if (existing === undefined)
      throw new Error("referring_physicians: NPI holder missing right after a refused insert");
    return { created: false as const, existingId: existing };
  }

  async findById(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("referring_physicians")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toPhysician(row) : undefined;
  }

  async update(p: ReferringPhysician) {
    const existing = await this.holderOfNpi(p.organisationId, p.npi, p.id);
    if (existing !== undefined) return { updated: false as const, existingId: existing };
    try {
      await refusableStatement(this.db, this.profile, () =>
        this.db
          .updateTable("referring_physicians")
          .set(columns(p))
          .where("organisation_id", "=", p.organisationId)
          .where("id", "=", p.id)
          .execute(),
      );
      return { updated: true as const };
    } catch (error) {
      if (!this.profile.isUniqueViolation(error)) throw error;
      return { updated: false as const, existingId: (await this.holderOfNpi(p.organisationId, p.npi, p.id)) ?? 0 };
    }
  }

  async search(organisationId: number, terms: string[], limit: number, offset: number) {
    let q = this.db.selectFrom("referring_physicians").where("organisation_id", "=", organisationId);
    for (const term of terms) q = q.where(sql<boolean>`search_text like ${containsPattern(term)} escape ${"\\"}`);
    const [rows, counted] = await Promise.all([
      q.selectAll().orderBy("last_name").orderBy("id").limit(limit).offset(offset).execute(),
      q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { physicians: rows.map(toPhysician), total: Number(counted.n) };
  }
}
