import type { FeeScheduleEntry, FeeScheduleRepository } from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { slices } from "../batches.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { FeeScheduleEntriesTable } from "../tables/billing.js";

const toEntry = (r: Selectable<FeeScheduleEntriesTable>): FeeScheduleEntry => ({
  organisationId: Number(r.organisation_id),
  year: Number(r.year),
  code: r.code,
  allowedCents: Number(r.allowed_cents),
  updatedAt: fromDbTime(r.updated_at),
});

export class KyselyFeeScheduleRepository implements FeeScheduleRepository {
  constructor(private readonly db: Kysely<Database>) {}

  async replaceYears(organisationId: number, years: readonly number[], entries: readonly FeeScheduleEntry[]) {
    if (years.length > 0)
      await this.db
        .deleteFrom("fee_schedule_entries")
        .where("organisation_id", "=", organisationId)
        .where("year", "in", [...years])
        .execute();
    // 500 rows a statement: far under every engine's bound on parameters (5 a row).
    for (const batch of slices(entries, 500))
      await this.db
        .insertInto("fee_schedule_entries")
        .values(
          batch.map((e) => ({
            organisation_id: organisationId,
            year: e.year,
            code: e.code,
            allowed_cents: e.allowedCents,
            updated_at: toDbTime(e.updatedAt),
          })),
        )
        .execute();
  }

  async list(organisationId: number, year: number, page: { limit: number; offset: number }) {
    const q = this.db
      .selectFrom("fee_schedule_entries")
      .where("organisation_id", "=", organisationId)
      .where("year", "=", year);
    const [rows, counted] = await Promise.all([
      q.selectAll().orderBy("code").limit(page.limit).offset(page.offset).execute(),
      q.select((eb) => eb.fn.countAll().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { entries: rows.map(toEntry), total: Number(counted.n) };
  }

  async allowedCents(organisationId: number, year: number, codes: readonly string[]) {
    const out = new Map<string, number>();
    if (codes.length === 0) return out;
    const rows = await this.db
      .selectFrom("fee_schedule_entries")
      .select(["code", "allowed_cents"])
      .where("organisation_id", "=", organisationId)
      .where("year", "=", year)
      .where("code", "in", [...new Set(codes)])
      .execute();
    for (const r of rows) out.set(r.code, Number(r.allowed_cents));
    return out;
  }
}
