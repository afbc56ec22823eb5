import type { ProviderSchedule, ScheduleRepository, Weekday } from "@openpractice/core";
import type { Kysely, Selectable } from "kysely";
import type { ProviderSchedulesTable } from "../tables/scheduling.js";
import { fromDbTime, toDbTime } from "../db-time.js";
import type { Database } from "../schema.js";
import type { SqlDialectProfile } from "../sql-dialect-profile.js";
import { insertReturningId } from "./insert-returning-id.js";

const toSchedule = (r: Selectable<ProviderSchedulesTable>): ProviderSchedule => ({
  id: Number(r.id),
  organisationId: Number(r.organisation_id),
  providerId: Number(r.provider_id),
  clinicId: Number(r.clinic_id),
  weekdays: r.weekdays ? (r.weekdays.split(",") as Weekday[]) : [],
  startTime: r.start_time,
  endTime: r.end_time,
  effectiveFrom: r.effective_from,
  effectiveUntil: r.effective_until,
  rrule: r.rrule,
  replacesId: r.replaces_id === null ? null : Number(r.replaces_id),
  replacedById: r.replaced_by_id === null ? null : Number(r.replaced_by_id),
  createdAt: fromDbTime(r.created_at),
  updatedAt: fromDbTime(r.updated_at),
});

export class KyselyScheduleRepository implements ScheduleRepository {
  constructor(
    private readonly db: Kysely<Database>,
    private readonly profile: SqlDialectProfile,
  ) {}

  async insert(s: Omit<ProviderSchedule, "id">): Promise<ProviderSchedule> {
    const id = await insertReturningId(this.db, this.profile, "provider_schedules", {
      organisation_id: s.organisationId,
      provider_id: s.providerId,
      clinic_id: s.clinicId,
      weekdays: s.weekdays.join(","),
      start_time: s.startTime,
      end_time: s.endTime,
      effective_from: s.effectiveFrom,
      effective_until: s.effectiveUntil,
      rrule: s.rrule,
      replaces_id: s.replacesId,
      replaced_by_id: s.replacedById,
      created_at: toDbTime(s.createdAt),
      updated_at: toDbTime(s.updatedAt),
    });
    return { ...s, id };
  }

  async findById(organisationId: number, id: number): Promise<ProviderSchedule | undefined> {
    const row = await this.db
      .selectFrom("provider_schedules")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .executeTakeFirst();
    return row ? toSchedule(row) : undefined;
  }

  async listInForce(organisationId: number, providerIds: readonly number[], from: string): Promise<ProviderSchedule[]> {
    if (providerIds.length === 0) return [];
    const rows = await this.db
      .selectFrom("provider_schedules")
      .selectAll()
      .where("organisation_id", "=", organisationId)
      .where("provider_id", "in", [...providerIds])
      .where((eb) => eb.or([eb("effective_until", "is", null), eb("effective_until", ">=", from)]))
      .orderBy("effective_from")
      .orderBy("id")
      .execute();
    return rows.map(toSchedule);
  }

  async list(
    organisationId: number,
    providerId: number,
    f: {
      clinicId?: number | undefined;
      inClinics?: readonly number[] | undefined;
      endingOnOrAfter?: string | undefined;
      limit: number;
      offset: number;
    },
  ): Promise<{ schedules: ProviderSchedule[]; total: number }> {
    let q = this.db
      .selectFrom("provider_schedules")
      .where("organisation_id", "=", organisationId)
      .where("provider_id", "=", providerId);
    if (f.clinicId !== undefined) q = q.where("clinic_id", "=", f.clinicId);
    if (f.inClinics) q = q.where("clinic_id", "in", [...f.inClinics]);
    const ending = f.endingOnOrAfter;
    if (ending !== undefined)
      q = q.where((eb) => eb.or([eb("effective_until", "is", null), eb("effective_until", ">=", ending)]));
    const [rows, count] = await Promise.all([
      q.selectAll().orderBy("effective_from", "desc").orderBy("id", "desc").limit(f.limit).offset(f.offset).execute(),
      q.select((eb) => eb.fn.countAll<number | string>().as("n")).executeTakeFirstOrThrow(),
    ]);
    return { schedules: rows.map(toSchedule), total: Number(count.n) };
  }

  async end(organisationId: number, id: number, effectiveUntil: string, replacedById: number | null, now: Date) {
    await this.db
      .updateTable("provider_schedules")
      .set({ effective_until: effectiveUntil, replaced_by_id: replacedById, updated_at: toDbTime(now) })
      .where("organisation_id", "=", organisationId)
      .where("id", "=", id)
      .execute();
  }
}
