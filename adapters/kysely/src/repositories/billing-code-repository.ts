import type { BillingCode, BillingCodeRepository } from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import { readLatest } from "../contention.js";
import { insertIgnoringDuplicate } from "../insert-ignoring-duplicate.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { BillingCodesTable } from "../tables/billing.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";

const toCode = (r: Selectable<BillingCodesTable>): BillingCode => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  code: r.code,
  description: r.description,
  timed: Boolean(Number(r.timed)),
  modifiers: JSON.parse(r.modifiers),
  specialities: JSON.parse(r.specialities),
  noteTypes: JSON.parse(r.note_types),
  payerIds: JSON.parse(r.payer_ids),
  active: Boolean(Number(r.active)),
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

export class KyselyBillingCodeRepository implements BillingCodeRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async upsert(organisationId: number, codes: Omit<BillingCode, "id" | "organisationId" | "createdAt">[], now: Date) {
    const known = this.db.selectFrom("billing_codes").select("code").where("organisation_id", "=", organisationId);
    const existing = new Set((await readLatest(this.profile, known).execute()).map((r) => r.code));
    let created = 0;
    for (const c of codes) {
      const values = {
        description: c.description,
        timed: c.timed ? 1 : 0,
        modifiers: JSON.stringify(c.modifiers),
        specialities: JSON.stringify(c.specialities),
        note_types: JSON.stringify(c.noteTypes),
        payer_ids: JSON.stringify(c.payerIds),
        active: c.active ? 1 : 0,
        updated_at: toDbTime(c.updatedAt),
      };
      // A code new to this read may still be inserted by a concurrent upload first: the unique key decides, the loser updates.
      if (
        !existing.has(c.code) &&
        (await insertIgnoringDuplicate(
          this.db,
          this.profile,
          "billing_codes",
          { organisation_id: organisationId, code: c.code, created_at: toDbTime(now), ...values },
          ["organisation_id", "code"],
        ))
      ) {
        created++;
      } else {
        await this.db
          .updateTable("billing_codes")
          .set(values)
          .where("organisation_id", "=", organisationId)
          .where("code", "=", c.code)
          .execute();
      }
    }
    return { created, updated: codes.length - created };
  }

  async list(organisationId: number) {
    return (
      await this.db
        .selectFrom("billing_codes")
        .selectAll()
        .where("organisation_id", "=", organisationId)
        .orderBy("code")
        .execute()
    ).map(toCode);
  }
}
