import { foldForMatch, type Payer, type PayerRepository, payerSearchText, type PayerType } from "@openpractice/core";
import { type Kysely, type Selectable, sql } from "kysely";
import { readLatest } from "../contention.js";
import { insertIgnoringDuplicateReturningId } from "../insert-ignoring-duplicate.js";
import type { PayersTable } from "../tables/payers.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { containsPattern } from "./contains-pattern.js";

/** The registry's rows have no organisation. */
const REGISTRY = 0;

const toPayer = (r: Selectable<PayersTable>): Payer => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id) === REGISTRY ? null : Number(r.organisation_id),
  payerId: r.payer_id,
  name: r.name,
  type: r.payer_type as PayerType,
  eligibility: Boolean(Number(r.eligibility)),
  medicarePartB: Boolean(Number(r.medicare_part_b)),
  active: Boolean(Number(r.active)),
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

const columns = (p: Omit<Payer, "id" | "organisationId">) => ({
  name: p.name,
  name_sort: foldForMatch(p.name),
  payer_type: p.type,
  eligibility: p.eligibility ? 1 : 0,
  medicare_part_b: p.medicarePartB ? 1 : 0,
  active: p.active ? 1 : 0,
  search_text: payerSearchText(p),
  updated_at: toDbTime(p.updatedAt),
});

export class KyselyPayerRepository implements PayerRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async upsertRegistry(payers: ReadonlyArray<Omit<Payer, "id" | "organisationId">>) {
    const existing = new Set(
      (await this.db.selectFrom("payers").select("payer_id").where("organisation_id", "=", REGISTRY).execute()).map(
        (r) => r.payer_id,
      ),
    );
    let created = 0;
    let updated = 0;
    for (const p of payers) {
      if (existing.has(p.payerId)) {
        await this.db
          .updateTable("payers")
          .set(columns(p))
          .where("organisation_id", "=", REGISTRY)
          .where("payer_id", "=", p.payerId)
          .execute();
        updated++;
      } else {
        await this.db
          .insertInto("payers")
          .values({ organisation_id: REGISTRY, payer_id: p.payerId, created_at: toDbTime(p.createdAt), ...columns(p) })
          .execute();
        created++;
      }
    }
    return { created, updated };
  }

  /** The registry's or this organisation's payer with this payer id, as last committed. */
  private async holder(organisationId: number, payerId: string) {
    const row = await readLatest(
      this.profile,
      this.db
        .selectFrom("payers")
        .select("id")
        .where("organisation_id", "in", [REGISTRY, organisationId])
        .where("payer_id", "=", payerId)
        .orderBy("organisation_id"),
    ).executeTakeFirst();
    return row ? Number(row.id) : undefined;
  }

  async insert(p: Omit<Payer, "id">) {
    const organisationId = p.organisationId ?? REGISTRY;
    const before = await this.holder(organisationId, p.payerId);
    if (before !== undefined) return { created: false as const, existingId: before };
    const id = await insertIgnoringDuplicateReturningId(
      this.db,
      this.profile,
      "payers",
      { organisation_id: organisationId, payer_id: p.payerId, created_at: toDbTime(p.createdAt), ...columns(p) },
      ["organisation_id", "payer_id"],
    );
    if (id !== undefined) return { created: true as const, payer: { ...p, id } };
    const after = await this.holder(organisationId, p.payerId);
    if (after === undefined) throw new Error("payers: payer id holder missing right after a refused insert");
    return { created: false as const, existingId: after };
  }

  async findById(organisationId: number, id: number) {
    const row = await this.db
      .selectFrom("payers")
      .selectAll()
      .where("organisation_id", "in", [REGISTRY, organisationId])
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toPayer(row) : undefined;
  }

  async search(
    organisationId: number,
    f: { terms: string[]; type?: PayerType | undefined; limit: number; offset: number },
  ) {
    let q = this.db.selectFrom("payers").where("organisation_id", "in", [REGISTRY, organisationId]);
    if (f.type !== undefined) q = q.where("payer_type", "=", f.type);
    for (const term of f.terms) q = q.where(sql<boolean>`search_text like ${containsPattern(term)} escape ${"\\"}`);
    const [rows, counted] = await Promise.all([
      q.selectAll().orderBy("name_sort").orderBy("id").limit(f.limit).offset(f.offset).execute(),
      q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { payers: rows.map(toPayer), total: Number(counted.n) };
  }
}
