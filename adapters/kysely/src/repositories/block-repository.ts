import type { BlockException, BlockRepository, ProviderBlock } from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import type { ProviderBlocksTable } from "../tables/scheduling.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { insertReturningId } from "./insert-returning-id.js";

const toBlock = (r: Selectable<ProviderBlocksTable>): ProviderBlock => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  providerId: Number(r.provider_id),
  startsAt: fromDbTime(r.starts_at),
  endsAt: fromDbTime(r.ends_at),
  lastEndsAt: fromDbTime(r.last_ends_at),
  reason: r.reason,
  timeZone: r.time_zone,
  rrule: r.rrule,
  createdAt: fromDbTime(r.created_at),
  removedAt: r.removed_at === null ? null : fromDbTime(r.removed_at),
  exceptions: r.exceptions === null ? [] : exceptionsFrom(r.exceptions),
  seriesId: r.series_id === null ? null : Number(r.series_id),
  version: Number(r.version),
});

type StoredException = {
  date: string;
  kind: BlockException["kind"];
  start: string | null;
  end: string | null;
  reason: string | null;
};

function exceptionsFrom(json: string): BlockException[] {
  return (JSON.parse(json) as StoredException[]).map((e) => ({
    occurrenceDate: e.date,
    kind: e.kind,
    startsAt: e.start === null ? null : fromDbTime(e.start),
    endsAt: e.end === null ? null : fromDbTime(e.end),
    reason: e.reason,
  }));
}

/** The exceptions as stored: null for none, so a block without any reads as every block before migration 038. */
function exceptionsJson(exceptions: readonly BlockException[]): string | null {
  if (exceptions.length === 0) return null;
  const stored: StoredException[] = exceptions.map((e) => ({
    date: e.occurrenceDate,
    kind: e.kind,
    start: e.startsAt === null ? null : toDbTime(e.startsAt),
    end: e.endsAt === null ? null : toDbTime(e.endsAt),
    reason: e.reason,
  }));
  return JSON.stringify(stored);
}

export class KyselyBlockRepository implements BlockRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async insert(b: Omit<ProviderBlock, "id">): Promise<ProviderBlock> {
    const id = await insertReturningId(this.db, this.profile, "provider_blocks", {
      organisation_id: b.organisationId,
      provider_id: b.providerId,
      starts_at: toDbTime(b.startsAt),
      ends_at: toDbTime(b.endsAt),
      last_ends_at: toDbTime(b.lastEndsAt),
      reason: b.reason,
      time_zone: b.timeZone,
      rrule: b.rrule,
      created_at: toDbTime(b.createdAt),
      removed_at: b.removedAt === null ? null : toDbTime(b.removedAt),
      exceptions: exceptionsJson(b.exceptions),
      series_id: b.seriesId,
      version: b.version,
    });
    return { ...b, id };
  }

  async update(b: ProviderBlock): Promise<boolean> {
    const result = await this.db
      .updateTable("provider_blocks")
      .set({
        starts_at: toDbTime(b.startsAt),
        ends_at: toDbTime(b.endsAt),
        last_ends_at: toDbTime(b.lastEndsAt),
        reason: b.reason,
        time_zone: b.timeZone,
        rrule: b.rrule,
        exceptions: exceptionsJson(b.exceptions),
        series_id: b.seriesId,
        version: b.version + 1,
      })
      .where("organisation_id", "=", b.organisationId)
      .where("id", "=", b.id)
      .where("version", "=", b.version)
      .where("removed_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async findById(organisationId: number, id: number): Promise<ProviderBlock | undefined> {
    const row = await this.db
      .selectFrom("provider_blocks")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toBlock(row) : undefined;
  }

  async listBetween(
    organisationId: number,
    providerIds: readonly number[],
    from: Date,
    to: Date,
  ): Promise<ProviderBlock[]> {
    if (providerIds.length === 0) return [];
    const rows = await this.db
      .selectFrom("provider_blocks")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("provider_id", "in", [...providerIds])
      .where("removed_at", "is", null)
      .where("last_ends_at", ">", toDbTime(from))
      .where("starts_at", "<", toDbTime(to))
      .orderBy("starts_at")
      .orderBy("id")
      .execute();
    return rows.map(toBlock);
  }

  async remove(organisationId: number, id: number, now: Date): Promise<boolean> {
    const result = await this.db
      .updateTable("provider_blocks")
      .set({ removed_at: toDbTime(now) })
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .where("removed_at", "is", null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) > 0;
  }
}
